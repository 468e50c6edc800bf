/** The lint configuration's module table, typed for the test that compares it with docs/ARCHITECTURE.md. */
export declare const MODULES: readonly {
  readonly path: string;
  readonly mayImport: readonly string[];
  readonly typesFrom?: readonly string[];
}[];
declare const config: unknown;
export default config;
