import type { z } from 'zod';
import { ISSUES, type IssueArgsOf, type IssueCode } from '../issues';

/**
 * A format rule's refusal as a catalogue code and its arguments. They ride in the zod issue's params, and
 * `zodInputIssues` words the input issue from them; zod's own message is the same wording, for a reader that
 * shows zod's issues as they are.
 */
export function addRuleIssue<C extends IssueCode>(
  ctx: z.RefinementCtx,
  path: PropertyKey[],
  code: C,
  ...[args]: IssueArgsOf<C>
): void {
  const message = (ISSUES[code] as (given: unknown) => string)(args ?? {});
  ctx.addIssue({ code: 'custom', path, message, params: { issue: code, args: args ?? {} } });
}
