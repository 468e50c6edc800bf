import type { InputIssue } from './errors';
import type { Control, LateChange, ScenarioFile } from './format/scenario';
import type { JsonLocator } from './format/json-text';
import { inputIssue } from './issues';

/** What the user view shows instead of the id of a record it withholds, wherever scenario text names one. */
export const REDACTED_RECORD = 'a record you may not see';

type Change = Control | LateChange;

/** The records a control or late change declares: those its patches touch, then those its text mentions. */
export function declaredRecords(change: Change): string[] {
  const ids = change.patches.flatMap((patch) =>
    patch.op === 'mergeContract' ? [] : [patch.op === 'addRecord' ? patch.record.id : patch.id],
  );
  return [...new Set([...ids, ...(change.mentions ?? [])])];
}

/** The records a change adds itself: before it is applied they exist nowhere else, so nothing withholds them. */
export function addedRecords(change: Change): Set<string> {
  return new Set(change.patches.flatMap((patch) => (patch.op === 'addRecord' ? [patch.record.id] : [])));
}

// Punctuation around a word that is not part of an id written in prose: "X9:", "(X9)", "X9's".
const AROUND = /^[("'“‘«[{]+|(?:['’]s)?[)"'”’».,;:!?\]}]*$/gu;

/** The words of a text with the punctuation around them taken off, each with where it starts and ends. */
function words(text: string): { readonly word: string; readonly start: number; readonly end: number }[] {
  const found: { word: string; start: number; end: number }[] = [];
  for (const match of text.matchAll(/\S+/gu)) {
    const raw = match[0];
    const lead = /^[("'“‘«[{]+/u.exec(raw)?.[0].length ?? 0;
    const core = raw.slice(lead).replace(AROUND, '');
    if (core !== '') found.push({ word: core, start: match.index + lead, end: match.index + lead + core.length });
  }
  return found;
}

/** The ids among `ids` that a text names, as whole words, in the order they first appear. */
export function namedRecords(text: string, ids: ReadonlySet<string>): string[] {
  return [
    ...new Set(
      words(text)
        .filter(({ word }) => ids.has(word))
        .map(({ word }) => word),
    ),
  ];
}

/** The text with every whole-word mention of a record in `hidden` replaced by REDACTED_RECORD. */
export function redactText(text: string, hidden: ReadonlySet<string>): string {
  if (hidden.size === 0) return text;
  let out = '';
  let at = 0;
  for (const { word, start, end } of words(text)) {
    if (!hidden.has(word)) continue;
    out += text.slice(at, start) + REDACTED_RECORD;
    at = end;
  }
  return out + text.slice(at);
}

/**
 * Scenario validation: a control's or late change's label or explanation may name a record of the scenario only if
 * the change declares it (patches it, or lists it in `mentions`), so the user view knows what to redact. `ids` are
 * the scenario's records and those its changes add.
 */
export function undeclaredMentions(
  file: string,
  scenario: ScenarioFile,
  ids: ReadonlySet<string>,
  locator?: JsonLocator,
): InputIssue[] {
  const issues: InputIssue[] = [];
  const check = (list: 'controls' | 'lateChanges', changes: readonly Change[]) =>
    changes.forEach((change, index) => {
      const declared = new Set(declaredRecords(change));
      for (const field of ['label', 'explanation'] as const) {
        for (const id of namedRecords(change[field], ids)) {
          if (declared.has(id)) continue;
          issues.push(
            inputIssue(
              { file, line: locator?.lineOf([list, index, field]), path: `${list}[${index}].${field}` },
              'CHANGE_NAMES_UNDECLARED',
              { record: id, change: change.id },
            ),
          );
        }
      }
    });
  check('controls', scenario.controls);
  check('lateChanges', scenario.lateChanges);
  return issues;
}

/** Every id a scenario's text could name: its records and those its changes add. */
export function scenarioRecordIds(scenario: ScenarioFile, recordIds: readonly string[]): Set<string> {
  const ids = new Set(recordIds);
  for (const change of [...scenario.controls, ...scenario.lateChanges])
    for (const id of addedRecords(change)) ids.add(id);
  return ids;
}
