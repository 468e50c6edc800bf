import { createApi } from '../lib/api';
import { openInMemoryDatabase } from '../sqlite/load-sqlite';

/**
 * The library the CLI is built on: every command turns its inputs into answers through these functions, as a
 * program importing the package does. The entry point installs Node's SHA-256 before any command runs.
 */
export const library = createApi({ ready: Promise.resolve(), openDatabase: openInMemoryDatabase });
