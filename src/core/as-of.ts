import type { Contract } from './format/contract';
import { parseInstant } from './format/time';

/**
 * The contract's as-of in epoch milliseconds. The only reading of `asOf` in the code: resolve calls it once per
 * compilation and passes the instant on, and what works without a compilation calls it too. Validation admits
 * only a real instant, so a contract without one is a caller's mistake and is thrown.
 */
export function asOfInstant(contract: Pick<Contract, 'asOf'>): number {
  const instant = parseInstant(contract.asOf);
  if (instant === null)
    throw new Error(
      `contract asOf ${JSON.stringify(contract.asOf)} is not an instant: contracts are validated before use`,
    );
  return instant;
}
