import '@testing-library/jest-dom/vitest';
import { installSha256InNode } from './lib/node-sha256';

// Every test runs the core in Node, through the SHA-256 the CLI installs.
installSha256InNode();
