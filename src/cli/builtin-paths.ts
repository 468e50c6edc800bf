import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The built-in scenarios, found from the code itself so the CLI works from any working directory: beside
 * the bundle (dist-cli/fixtures/, copied there at build time), or the repository's fixtures/ when the
 * sources run directly (tests, tsx).
 */
export const FIXTURES_DIR =
  [new URL('./fixtures/', import.meta.url), new URL('../../fixtures/', import.meta.url)]
    .map((url) => fileURLToPath(url))
    .find((path) => existsSync(`${path}retry-policy/scenario.json`)) ??
  fileURLToPath(new URL('../../fixtures/', import.meta.url));

export const DEFAULT_SCENARIO_ID = 'retry-policy';

export function builtinScenarioPath(id: string): string {
  return `${FIXTURES_DIR}${id}/scenario.json`;
}

/**
 * The built app that `serve` serves: beside the bundle's folder (the package), or the clone's dist/; null when not
 * built.
 */
export const APP_DIR: string | null =
  [new URL('../dist/', import.meta.url), new URL('../../dist/', import.meta.url)]
    .map((url) => fileURLToPath(url))
    .find((path) => existsSync(`${path}index.html`)) ?? null;

/** The built-in scenario ids: the folders beside the CLI that hold a scenario.json. */
export function builtinScenarioIds(): string[] {
  return readdirSync(FIXTURES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(builtinScenarioPath(entry.name)))
    .map((entry) => entry.name)
    .sort();
}
