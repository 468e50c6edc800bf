/**
 * The corpus sizes the app offers for the growth experiment; the worker refuses any other. Kept out of
 * protocol.ts, which builds zod schemas on import: the UI thread imports only this value.
 */
export const EVALUATION_GROWTH_SIZES = [100, 1_000, 10_000, 50_000] as const;
export type EvaluationGrowthSize = (typeof EVALUATION_GROWTH_SIZES)[number];
