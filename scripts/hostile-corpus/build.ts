import { buildContract, buildRecord } from '../../src/core/test-support/builders';
import type { HostileCase } from './manifest';

/** What every kind of generated case is built from: the base files and small builders. */

// The base records are hashed as this module loads, before any importer's own code runs.
export const BASE = { records: 'base.records.jsonl', contract: 'base.contract.json', scenario: 'base.scenario.json' };
export const ESC = '\u001b]0;owned\u0007\u001b[2J';
export const record = (id: string, overrides: Parameters<typeof buildRecord>[0] = {}) =>
  buildRecord({ id, ...overrides });
export const baseRecords = ['R-1', 'R-2', 'R-3', 'R-4'].map((id) => record(id));
export const baseContract = buildContract({ requiredRecords: ['R-1'] });
export const baseScenario = {
  id: 'hostile-base',
  title: 'Hostile corpus base',
  contract: baseContract,
  records: baseRecords,
  controls: [
    {
      id: 'tight',
      label: 'Tight budget',
      explanation: 'The required record no longer fits.',
      patches: [{ op: 'mergeContract', patch: { tokenBudget: 1 } }],
    },
  ],
  lateChanges: [
    {
      id: 'more',
      label: 'Require R-2 too',
      explanation: 'A late change of the contract.',
      mentions: ['R-2'],
      patches: [{ op: 'mergeContract', patch: { requiredRecords: ['R-1', 'R-2'] } }],
    },
  ],
};
export const line = (value: unknown) => JSON.stringify(value);
export const lines = (...values: string[]) => `${values.join('\n')}\n`;
export const valid = (...ids: string[]) => ids.map((id) => line(record(id)));
export const withField = (id: string, field: string, value: unknown) => line({ ...record(id), [field]: value });
export const contractWith = (patch: Record<string, unknown>) => ({ ...baseContract, ...patch });
export const scenarioWith = (patch: Record<string, unknown>) => ({ ...baseScenario, ...patch });
export const change = (id: string, patches: unknown[], label = `Change ${id}`) => ({
  id,
  label,
  explanation: 'Hostile case.',
  patches,
});
export const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

export interface Generated {
  readonly file: string;
  readonly kind: HostileCase['kind'];
  readonly about: string;
  readonly text: string | Uint8Array;
  readonly expect: HostileCase['expect'];
  readonly with?: string[];
  readonly controls?: string[];
  readonly app?: HostileCase['app'];
  readonly knownBug?: string;
}

export const refused = (
  file: string,
  line: number | undefined,
  path: string,
  message?: string,
  code = 'INVALID_INPUT',
): HostileCase['expect'] => ({
  exit: 1,
  code,
  at: { file, ...(line === undefined ? {} : { line }), path },
  ...(message === undefined ? {} : { message }),
});
export const emitted: HostileCase['expect'] = { exit: 0, code: null };
/**
 * A records line that is not a record: inadmissible, listed with its place in the diagnostic view; the outcome's exit.
 */
export const unread = (
  file: string,
  line: number,
  path: string,
  message?: string,
  exit: HostileCase['expect']['exit'] = 0,
): HostileCase['expect'] => ({
  exit,
  code: 'EXCLUDE_UNREADABLE',
  at: { file, line, path },
  ...(message === undefined ? {} : { message }),
});
