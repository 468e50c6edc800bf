import { sha256InNode } from '../../lib/node-sha256';

/** The SHA-256 the tests hash with unless they say otherwise: Node's, the one the CLI passes to the core. */
export const sha256 = sha256InNode;
