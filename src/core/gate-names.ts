/** The legality gates, in the fixed order the admit pass applies them. The first failure names the reason. */
export const GATE_ORDER = [
  'project',
  'scope',
  'identity',
  'time',
  'supersession',
  'lifecycle',
  'source',
  'authority',
  'review',
  'provenance',
  'sensitivity',
  'authorisation',
  'deny',
  'evidence',
] as const;

export type GateName = (typeof GATE_ORDER)[number];

export type Decision = 'selected' | 'excluded';
