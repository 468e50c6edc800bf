import { describeSha256 } from '../core/test-support/sha256-battery';
import { sha256InNode } from './node-sha256';

describeSha256('through node:crypto (the CLI, tests and scripts)', sha256InNode);
