import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The built-in scenarios, found from the code itself so the CLI works from any working directory: beside
 * the bundle (dist-cli/fixtures/, copied there at build time), or the repository's fixtures/ when the
 * sources run directly (tests, tsx).
 */
export const FIXTURES_DIR = [new URL('./fixtures/', import.meta.url), new URL('../../fixtures/', import.meta.url)].map((url) => fileURLToPath(url)).find((path) => existsSync(`${path}retry-policy/scenario.json`)) ?? fileURLToPath(new URL('../../fixtures/', import.meta.url));

export const DEFAULT_SCENARIO_ID = 'retry-policy';

export function builtinScenarioPath(id: string): string {
  return `${FIXTURES_DIR}${id}/scenario.json`;
}
