import { fileURLToPath } from 'node:url';

/** The repository's fixtures folder, found from this file so the CLI works from any working directory. */
export const FIXTURES_DIR = fileURLToPath(new URL('../../fixtures/', import.meta.url));

export const DEFAULT_SCENARIO_ID = 'retry-policy';

export function builtinScenarioPath(id: string): string {
  return `${FIXTURES_DIR}${id}/scenario.json`;
}
