/** A scenario shipped with the product: its folder under `fixtures/` is named by its id. */
export interface BuiltinScenario {
  readonly id: string;
  readonly title: string;
  /** One line for a picker: what the scenario teaches. */
  readonly summary: string;
}

/** Ordered for display; the first entry is what the app and the CLI open when nothing is chosen. */
export const BUILTIN_SCENARIOS = [
  {
    id: 'retry-policy',
    title: 'Payments platform: card authorisation retry policy',
    summary: 'Naive top-k fills the budget with five illegal near-copies and misses the binding decision ADR-0234.',
  },
  {
    id: 'atlas-credit-review',
    title: 'Atlas overdraft continuation at annual credit review',
    summary: 'Only typed evidence counts: a manager note cannot prove a waiver, so waiver_valid stays unknown.',
  },
  {
    id: 'refund-desk',
    title: 'Refund desk: order 481 without manager approval?',
    summary: 'A customer email can show an exception was requested, never that it was approved.',
  },
] as const satisfies readonly BuiltinScenario[];

export type BuiltinScenarioId = (typeof BUILTIN_SCENARIOS)[number]['id'];

export const DEFAULT_SCENARIO_ID: BuiltinScenarioId = BUILTIN_SCENARIOS[0].id;

export function isBuiltinScenarioId(value: string): value is BuiltinScenarioId {
  return BUILTIN_SCENARIOS.some((scenario) => scenario.id === value);
}

/** Path of a built-in scenario file relative to the repository root. */
export function builtinScenarioPath(id: BuiltinScenarioId): string {
  return `fixtures/${id}/scenario.json`;
}
