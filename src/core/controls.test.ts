import { sha256 } from './test-support/sha256';
import { describe, expect, it } from 'vitest';
import { applyChanges, mergePatch, pickChanges } from './controls';
import type { Control, Patch } from './format/scenario';
import { parseScenarioJson } from './phases/1-validate/validate';
import { buildContract, buildRecord, buildRecordSet, errorOf, valueOf } from './test-support/builders';

const change = (id: string, ...patches: Patch[]): Control => ({
  id,
  label: `Label ${id}`,
  explanation: 'why',
  patches,
});

describe('mergePatch (RFC 7396)', () => {
  it('merges objects key by key, removes on null and replaces arrays and scalars', () => {
    expect(mergePatch({ a: 1, b: { c: 2, d: 3 }, e: [1, 2] }, { b: { c: null, f: 4 }, e: [3], g: 'x' })).toEqual({
      a: 1,
      b: { d: 3, f: 4 },
      e: [3],
      g: 'x',
    });
    expect(mergePatch({ a: 1 }, [1])).toEqual([1]);
    expect(mergePatch('text', { a: { b: null } })).toEqual({ a: {} });
  });

  it('leaves the target untouched', () => {
    const target = { a: { b: 1 } };
    mergePatch(target, { a: { b: 2 } });
    expect(target).toEqual({ a: { b: 1 } });
  });
});

describe('applyChanges', () => {
  const a = buildRecord({ id: 'a' });
  const b = buildRecord({ id: 'b' });
  const recordSet = buildRecordSet([a, b]);
  const contract = buildContract();

  it('patches records and the contract in order, keeping untouched record objects', () => {
    const result = valueOf(
      applyChanges(sha256, contract, recordSet, [
        change(
          'first',
          { op: 'mergeRecord', id: 'a', patch: { scope: 'legal' } },
          { op: 'mergeContract', patch: { scopes: ['legal'] } },
        ),
        change('second', { op: 'mergeRecord', id: 'a', patch: { scope: 'billing' } }),
      ]),
    );
    expect(result.contract.scopes).toEqual(['legal']);
    expect(result.recordSet.byId.get('a')?.record.scope).toBe('billing');
    expect(result.recordSet.byId.get('b')?.record).toBe(b);
    expect(result.recordSet.byId.get('b')).toBe(recordSet.byId.get('b'));
  });

  it('answers every lookup of the patched record set as a freshly built one would', () => {
    const result = valueOf(
      applyChanges(sha256, contract, recordSet, [
        change('relabel', { op: 'mergeRecord', id: 'b', patch: { access: { labels: ['investigation'] } } }),
        change('add', { op: 'addRecord', record: buildRecord({ id: 'c' }) }),
        change('unprove', { op: 'mergeRecord', id: 'a', patch: { provenance: null } }),
      ]),
    ).recordSet;
    const rebuilt = buildRecordSet(result.records);
    expect([...result.byId]).toEqual([...rebuilt.byId]);
    expect(result.checked).toEqual(rebuilt.checked);
    expect([...result.byId.keys()]).toEqual(['a', 'b', 'c']);
    expect(result.byId.size).toBe(3);
    expect(result.byId.has('c') && result.byId.get('b')?.record.access.labels).toEqual(['investigation']);
    expect(result.byId.get('a')?.provenanceVerified).toBe(false);
    expect(result.ids).toEqual(rebuilt.ids);
    expect(result.successors).toEqual(rebuilt.successors);
  });

  it('keeps the records that supersede another as a fresh set has them, whichever way a patch changes them', () => {
    const chain = buildRecordSet([
      buildRecord({ id: 'a' }),
      buildRecord({ id: 'b', supersedes: ['a'] }),
      buildRecord({ id: 'c' }),
      buildRecord({ id: 'd', supersedes: ['c'] }),
    ]);
    const patches: Patch[][] = [
      [{ op: 'mergeRecord', id: 'b', patch: { scope: 'legal' } }],
      [{ op: 'mergeRecord', id: 'a', patch: { scope: 'legal' } }],
      [{ op: 'mergeRecord', id: 'c', patch: { supersedes: ['a'] } }],
      [{ op: 'mergeRecord', id: 'b', patch: { supersedes: [] } }],
      [{ op: 'mergeRecord', id: 'd', patch: { supersedes: ['a', 'c'] } }],
      [{ op: 'addRecord', record: buildRecord({ id: 'e', supersedes: ['d'] }) }],
      [{ op: 'removeRecord', id: 'b' }],
    ];
    for (const patch of patches) {
      const result = valueOf(applyChanges(sha256, contract, chain, [change('edit', ...patch)])).recordSet;
      const rebuilt = buildRecordSet(result.records);
      expect(result.successors.map((item) => item.record.id)).toEqual(rebuilt.successors.map((item) => item.record.id));
      expect(result.successors).toEqual(rebuilt.successors);
      expect(result.successors.every((item) => result.byId.get(item.record.id) === item)).toBe(true);
    }
  });

  it('keeps the ids array itself when nothing is added, and puts each patched record at its place', () => {
    const three = buildRecordSet([a, b, buildRecord({ id: 'c' })]);
    const result = valueOf(
      applyChanges(sha256, contract, three, [
        change('relabel', { op: 'mergeRecord', id: 'b', patch: { access: { labels: ['investigation'] } } }),
      ]),
    ).recordSet;
    expect(result.ids).toBe(three.ids);
    expect(result.records.map((record) => record.id)).toEqual(['a', 'b', 'c']);
    expect(result.records[0]).toBe(a);
    expect(result.records[1]?.access.labels).toEqual(['investigation']);
    expect(result.records[2]).toBe(three.records[2]);
    expect(result.records.map((record, index) => record === result.checked[index]?.record)).toEqual([true, true, true]);
  });

  it('adds and removes records', () => {
    const added = buildRecord({ id: 'c' });
    const result = valueOf(
      applyChanges(sha256, contract, recordSet, [
        change('swap', { op: 'removeRecord', id: 'a' }, { op: 'addRecord', record: added }),
      ]),
    );
    expect(result.recordSet.records.map((r) => r.id)).toEqual(['b', 'c']);
  });

  it('re-validates a patched record and names the control, its label and the path', () => {
    const error = errorOf(
      applyChanges(sha256, contract, recordSet, [
        change('bad-date', { op: 'mergeRecord', id: 'a', patch: { validTo: '2026-02-30' } }),
      ]),
    );
    expect(error).toMatchObject({ pass: 'controls', code: 'INVALID_INPUT' });
    expect(error.message).toMatch(/^bad-date \("Label bad-date"\): the patched record a is invalid at validTo: /);
  });

  it("words a patched record's problem as a file with that problem is refused, not in zod's words", () => {
    const error = errorOf(
      applyChanges(sha256, contract, recordSet, [
        change('look-alike', { op: 'mergeRecord', id: 'a', patch: { project: 'p\u200b' } }),
      ]),
    );
    expect(error.message).toMatch(
      /^look-alike \("Label look-alike"\): the patched record a is invalid at project: holds U\+200B, a character that does not show.*: an identifier may not hold invisible/,
    );
  });

  it('re-validates a patched contract, refusing unknown fields', () => {
    const error = errorOf(
      applyChanges(sha256, contract, recordSet, [change('extra', { op: 'mergeContract', patch: { colour: 'red' } })]),
    );
    expect(error.message).toMatch(/^extra \("Label extra"\): the patched contract is invalid at \(root\)/);
  });

  it('refuses patches that name absent records, duplicate an id or rename a record', () => {
    expect(
      errorOf(applyChanges(sha256, contract, recordSet, [change('x', { op: 'mergeRecord', id: 'ghost', patch: {} })]))
        .code,
    ).toBe('DANGLING_REFERENCE');
    expect(
      errorOf(
        applyChanges(sha256, contract, recordSet, [
          change('x', { op: 'removeRecord', id: 'a' }, { op: 'removeRecord', id: 'a' }),
        ]),
      ).code,
    ).toBe('DANGLING_REFERENCE');
    expect(
      errorOf(
        applyChanges(sha256, contract, recordSet, [change('x', { op: 'addRecord', record: buildRecord({ id: 'b' }) })]),
      ).code,
    ).toBe('DUPLICATE_ID');
    expect(
      errorOf(
        applyChanges(sha256, contract, recordSet, [change('x', { op: 'mergeRecord', id: 'a', patch: { id: 'z' } })]),
      ).message,
    ).toMatch(/may not rename record a/);
  });
});

describe('pickChanges', () => {
  const available = [
    change('one', { op: 'removeRecord', id: 'a' }),
    change('two', { op: 'removeRecord', id: 'b' }),
    change('three', { op: 'removeRecord', id: 'c' }),
  ];

  it('returns the chosen changes in scenario order, whatever order they were toggled in', () => {
    expect(valueOf(pickChanges(available, ['three', 'one'], 'control')).map((c) => c.id)).toEqual(['one', 'three']);
  });

  it('refuses an unknown id and lists the available ones', () => {
    expect(errorOf(pickChanges(available, ['one', 'four'], 'control'))).toMatchObject({
      code: 'UNKNOWN_CONTROL',
      message: 'no control "four"; available: one, two, three',
    });
  });
});

describe('hostile scenarios', () => {
  const scenarioWith = (controls: unknown[], lateChanges: unknown[] = []) =>
    JSON.stringify(
      { id: 's', title: 'S', contract: buildContract(), records: [buildRecord({ id: 'a' })], controls, lateChanges },
      null,
      2,
    );
  const control = (id: string, patch: string) => `{"id":"${id}","label":"L","explanation":"E","patches":[${patch}]}`;

  it.each(['__proto__', 'constructor', 'prototype'])(
    'refuse %s as an unknown field of a merge patch, at the top or nested',
    (key) => {
      const top = scenarioWith([]).replace(
        '"controls": []',
        `"controls": [${control('c', `{"op":"mergeContract","patch":{"${key}":{"tokenBudget":1}}}`)}]`,
      );
      const topIssue = errorOf(parseScenarioJson(sha256, 's.json', top, () => null)).issues?.[0];
      expect(topIssue).toMatchObject({
        path: 'controls[0].patches[0].patch',
        message: `unknown field "${key}": not part of the format`,
      });
      expect(topIssue?.line).toBeGreaterThan(1);
      const nested = scenarioWith([]).replace(
        '"controls": []',
        `"controls": [${control('c', `{"op":"mergeRecord","id":"a","patch":{"access":{"${key}":{"roles":[]}}}}`)}]`,
      );
      expect(errorOf(parseScenarioJson(sha256, 's.json', nested, () => null)).issues?.[0]).toMatchObject({
        path: 'controls[0].patches[0].patch.access',
        message: `unknown field "${key}": not part of the format`,
      });
    },
  );

  it('refuse two controls, or two late changes, with one id', () => {
    const twice = scenarioWith([
      JSON.parse(control('c', '{"op":"mergeContract","patch":{"tokenBudget":1}}')),
      JSON.parse(control('c', '{"op":"mergeContract","patch":{"tokenBudget":2}}')),
    ]);
    expect(errorOf(parseScenarioJson(sha256, 's.json', twice, () => null)).issues).toEqual([
      expect.objectContaining({
        path: 'controls[1].id',
        code: 'DUPLICATE_ID',
        message: 'duplicate id "c": first defined at [0]',
      }),
    ]);
    const late = scenarioWith(
      [],
      [
        JSON.parse(control('x', '{"op":"removeRecord","id":"a"}')),
        JSON.parse(control('x', '{"op":"removeRecord","id":"a"}')),
      ],
    );
    expect(errorOf(parseScenarioJson(sha256, 's.json', late, () => null)).issues?.[0]?.path).toBe('lateChanges[1].id');
  });

  it('mergePatch defines a "__proto__" key as a field, never as the prototype', () => {
    const patch = JSON.parse('{"__proto__":{"polluted":true}}') as unknown;
    const merged = mergePatch({ a: 1 }, patch) as Record<string, unknown>;
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype);
    expect(Object.keys(merged)).toEqual(['a', '__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
