import { z } from 'zod';
import { addRuleIssue } from './rule-issue';
import { reasonCodeSchema } from './expectation';
import { quoteValue } from './json-text';
import { idSchema } from './identifier';

/**
 * What the app checks on screen once a step's action is done. Every field is optional; all given must hold,
 * else the card says what it found instead of the step's `shows` text.
 */
export const tourExpectSchema = z.strictObject({
  outcome: z.enum(['packet', 'fail_closed']).optional(),
  /** The fail-closed reason code. */
  failure: reasonCodeSchema.optional(),
  inPacket: z.array(idSchema).optional(),
  notInPacket: z.array(idSchema).optional(),
  /** Records the naive top-k column holds, or does not (the diagnostic view shows it). */
  inNaive: z.array(idSchema).optional(),
  notInNaive: z.array(idSchema).optional(),
  /** The fire drill's verdict on the frozen receipt. */
  verdict: z.enum(['continue', 'recompile_required', 'block']).optional(),
});

const common = {
  title: z.string().min(1).max(120),
  /** What the step shows, said only once its action is done and `expect` holds. */
  shows: z.string().min(1).max(600),
  expect: tourExpectSchema.optional(),
};

/** One step: one action the participant takes (`do`), then what it shows. */
export const tourStepSchema = z.discriminatedUnion('do', [
  z.strictObject({ do: z.literal('switchOn'), control: idSchema, ...common }),
  z.strictObject({ do: z.literal('switchOff'), control: idSchema, ...common }),
  z.strictObject({ do: z.literal('freeze'), ...common }),
  z.strictObject({ do: z.literal('inject'), lateChange: idSchema, ...common }),
  z.strictObject({ do: z.literal('attempt'), ...common }),
  z.strictObject({ do: z.literal('recompile'), ...common }),
]);

export const tourSchema = z.array(tourStepSchema).min(1).max(50);

/**
 * A step that names a control or late change the scenario does not declare could never be done (worded as
 * UNDECLARED_SWITCH).
 */
export function knownTourChanges(
  scenario: {
    readonly controls: readonly { readonly id: string }[];
    readonly lateChanges: readonly { readonly id: string }[];
    readonly tour?: readonly TourStepFile[] | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  const controls = scenario.controls.map((control) => control.id);
  const lateChanges = scenario.lateChanges.map((change) => change.id);
  const undeclared = (index: number, field: string, kind: string, id: string, declared: readonly string[]) =>
    addRuleIssue(ctx, ['tour', index, field], 'UNDECLARED_SWITCH', { kind, id: quoteValue(id), declared });
  scenario.tour?.forEach((step, index) => {
    if ((step.do === 'switchOn' || step.do === 'switchOff') && !controls.includes(step.control))
      undeclared(index, 'control', 'control', step.control, controls);
    if (step.do === 'inject' && !lateChanges.includes(step.lateChange))
      undeclared(index, 'lateChange', 'late change', step.lateChange, lateChanges);
  });
}

export type TourExpect = z.output<typeof tourExpectSchema>;
export type TourStepFile = z.output<typeof tourStepSchema>;
