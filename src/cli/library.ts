import { createApi } from '../lib/api';
import { sha256InNode } from '../lib/node-sha256';
import { openInMemoryDatabase } from '../sqlite/load-sqlite';

/**
 * The library the CLI is built on: every command turns its inputs into answers through these functions, as a
 * program importing the package does, with Node's SHA-256.
 */
export const library = createApi({ sha256: sha256InNode, openDatabase: openInMemoryDatabase });
