import { createHash, hash } from 'node:crypto';
import { readOnce, type Sha256 } from '../core/fingerprints';

/**
 * SHA-256 through Node's own crypto (OpenSSL), which every Node entry point passes to the core: the CLI, the
 * tests, the benchmarks and scripts. Text is hashed as UTF-8, a lone surrogate as U+FFFD, as everywhere.
 */
export const sha256InNode: Sha256 = {
  hex: (text) => hash('sha256', text, 'hex'),
  hexOfBytes: (bytes) => hash('sha256', bytes, 'hex'),
  digest() {
    const running = createHash('sha256');
    return readOnce(
      (text) => running.update(text, 'utf8'),
      () => running.digest('hex'),
    );
  },
};
