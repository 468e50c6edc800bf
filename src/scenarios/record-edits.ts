import type { Sha256 } from '../core/fingerprints';
import { z } from 'zod';
import { err, ok, type CompileError, type InputIssue, type Result } from '../core/errors';
import { recordSchema, type SourceRecord } from '../core/format/record';
import { controlSchema, lateChangeSchema, type Control, type LateChange } from '../core/format/scenario';
import { invalidInput, jsonTextIssue, zodInputIssues } from '../core/format/input-issues';
import { createJsonLocator, parseJsonText } from '../core/format/json-text';
import { inputIssue } from '../core/issues';
import { checkChangeTexts, checkRecord, recordSetOf, type LoadedScenario } from '../core/phases/1-validate/validate';

/*
 * Edits made in the app to a scenario: records replaced whole, and controls and late changes authored from a
 * record edit, appended to the scenario's own. Kept as this small value (not the edited scenario) so a workspace
 * of 100,000 records saves and shares only what was changed; applied, it is a scenario like any loaded one.
 */

export const scenarioEditSchema = z.strictObject({
  /** Records that replace the scenario's record of the same id, in the order they were first edited. */
  records: z.array(recordSchema),
  controls: z.array(controlSchema),
  lateChanges: z.array(lateChangeSchema),
});

export type ScenarioEdit = z.output<typeof scenarioEditSchema>;

export const NO_EDIT: ScenarioEdit = { records: [], controls: [], lateChanges: [] };

/**
 * The scenario with the edit applied; refused, naming the field, when a record it replaces is not the scenario's or a
 * change's id is taken.
 */
export function applyScenarioEdit(
  sha256: Sha256,
  base: LoadedScenario,
  edit: ScenarioEdit,
  file = 'record edit',
): Result<LoadedScenario, CompileError> {
  const replaced = new Map(edit.records.map((record) => [record.id, record]));
  const issues: InputIssue[] = [];
  edit.records.forEach((record, index) => {
    if (!base.recordSet.byId.has(record.id))
      issues.push(inputIssue({ file, path: `records[${index}].id` }, 'EDIT_NO_SUCH_RECORD', { id: record.id }));
  });
  const taken = (
    list: 'controls' | 'lateChanges',
    own: readonly { readonly id: string }[],
    added: readonly { readonly id: string }[],
  ) => {
    const ids = new Set(own.map((change) => change.id));
    added.forEach((change, index) => {
      if (ids.has(change.id))
        issues.push(
          inputIssue({ file, path: `${list}[${index}].id` }, 'EDIT_ID_TAKEN', {
            id: change.id,
            list: list === 'controls' ? 'controls' : 'late changes',
          }),
        );
      ids.add(change.id);
    });
  };
  taken('controls', base.scenario.controls, edit.controls);
  taken('lateChanges', base.scenario.lateChanges, edit.lateChanges);
  if (issues.length > 0) return err(invalidInput(file, issues, issues.length, 'record edit'));
  // Only the replaced records are checked (hashed) again; every other keeps the check it had.
  const checked =
    replaced.size === 0
      ? base.recordSet.checked
      : base.recordSet.checked.map((item) =>
          replaced.has(item.record.id) ? checkRecord(sha256, replaced.get(item.record.id) as SourceRecord) : item,
        );
  const recordSet =
    replaced.size === 0 ? base.recordSet : recordSetOf(checked, base.recordSet.locations, base.recordSet);
  const scenario = {
    ...base.scenario,
    records: [...recordSet.records],
    controls: [...base.scenario.controls, ...edit.controls],
    lateChanges: [...base.scenario.lateChanges, ...edit.lateChanges],
  };
  return checkChangeTexts(file, { scenario, recordSet });
}

/**
 * A record from the form (a value) or the JSON box (text), validated like a record in a file: each issue names its
 * field.
 */
export function readEditedRecord(
  input: { readonly value: unknown } | { readonly text: string },
  file = 'record',
): Result<SourceRecord, CompileError> {
  let value: unknown;
  let locator;
  if ('text' in input) {
    const json = parseJsonText(input.text);
    if (!json.ok) return err(invalidInput(file, [jsonTextIssue(file, json.error)], 1, 'record'));
    value = json.value;
    locator = createJsonLocator(input.text);
  } else value = input.value;
  const parsed = recordSchema.safeParse(value);
  if (!parsed.success)
    return err(
      invalidInput(
        file,
        zodInputIssues({ file, locator, schema: recordSchema }, parsed.error, value),
        parsed.error.issues.length,
        'record',
      ),
    );
  return ok(parsed.data);
}

/**
 * The fields that differ, as a JSON merge patch of their new values (a removed optional field is set to its default).
 */
export function recordPatch(before: SourceRecord, after: SourceRecord): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const key of Object.keys(after) as (keyof SourceRecord)[]) {
    if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) patch[key] = after[key];
  }
  return patch;
}

/** A control or late change that applies one record edit when switched on; null when the edit changes nothing. */
export function changeFromEdit(
  before: SourceRecord,
  after: SourceRecord,
  id: string,
  label: string,
): Control | LateChange | null {
  const patch = recordPatch(before, after);
  const fields = Object.keys(patch);
  if (fields.length === 0) return null;
  return {
    id,
    label,
    explanation: `Edits ${before.id}: ${fields.join(', ')}.`,
    patches: [{ op: 'mergeRecord', id: before.id, patch }],
  };
}

/** An id for a change authored from `label`, unused among `taken`: the label's words, lower-case and hyphenated. */
export function changeIdFor(label: string, taken: ReadonlySet<string>): string {
  const stem =
    label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'edit';
  let id = stem;
  for (let n = 2; taken.has(id); n += 1) id = `${stem}-${n}`;
  return id;
}

/** The edit with one more record replaced (or replaced again), or one more change authored. */
export function withRecord(edit: ScenarioEdit, record: SourceRecord): ScenarioEdit {
  const index = edit.records.findIndex((item) => item.id === record.id);
  const records =
    index === -1 ? [...edit.records, record] : edit.records.map((item, at) => (at === index ? record : item));
  return { ...edit, records };
}
