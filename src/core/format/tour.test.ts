import { sha256 } from '../test-support/sha256';
import { describe, expect, it } from 'vitest';
import { parseScenarioJson } from '../phases/1-validate/validate';
import { buildContract, buildRecord, errorOf } from '../test-support/builders';

const control = { id: 'c', label: 'C', explanation: 'Removes a.', patches: [{ op: 'removeRecord', id: 'a' }] };
const lateChange = { id: 'l', label: 'L', explanation: 'Removes a.', patches: [{ op: 'removeRecord', id: 'a' }] };
const scenario = (tour: unknown) =>
  JSON.stringify(
    {
      id: 's',
      title: 'S',
      contract: buildContract(),
      records: [buildRecord({ id: 'a' })],
      controls: [control],
      lateChanges: [lateChange],
      tour,
    },
    null,
    2,
  );

describe("a scenario file's tour", () => {
  it('is read with its steps, and an absent one stays absent', () => {
    const tour = [
      { do: 'switchOn', control: 'c', title: 'T', shows: 'S', expect: { notInPacket: ['a'], outcome: 'packet' } },
      { do: 'freeze', title: 'F', shows: 'S' },
      { do: 'inject', lateChange: 'l', title: 'I', shows: 'S' },
      { do: 'attempt', title: 'A', shows: 'S', expect: { verdict: 'recompile_required' } },
    ];
    const parsed = parseScenarioJson(sha256, 's.json', scenario(tour), () => null);
    expect(parsed.ok && parsed.value.scenario.tour).toEqual(tour);
    const without = parseScenarioJson(sha256, 's.json', scenario(undefined), () => null);
    expect(without.ok && without.value.scenario.tour).toBeUndefined();
  });

  it('refuses a step naming a control or late change the scenario lacks, with its line', () => {
    const error = errorOf(
      parseScenarioJson(
        sha256,
        's.json',
        scenario([
          { do: 'switchOff', control: 'nope', title: 'T', shows: 'S' },
          { do: 'inject', lateChange: 'c', title: 'T', shows: 'S' },
        ]),
        () => null,
      ),
    );
    expect(error.issues).toEqual([
      expect.objectContaining({
        path: 'tour[0].control',
        code: 'UNDECLARED_SWITCH',
        args: { kind: 'control', id: '"nope"', declared: ['c'] },
        message: 'no control "nope": the inputs declare c',
        line: 107,
      }),
      expect.objectContaining({
        path: 'tour[1].lateChange',
        message: 'no late change "c": the inputs declare l',
        line: 113,
      }),
    ]);
  });

  it('refuses an unknown action, an unknown expectation and an empty tour', () => {
    expect(
      errorOf(parseScenarioJson(sha256, 's.json', scenario([{ do: 'wave', title: 'T', shows: 'S' }]), () => null))
        .issues?.[0],
    ).toMatchObject({ path: 'tour[0].do' });
    expect(
      errorOf(
        parseScenarioJson(
          sha256,
          's.json',
          scenario([{ do: 'freeze', title: 'T', shows: 'S', expect: { inTrace: ['a'] } }]),
          () => null,
        ),
      ).issues?.[0],
    ).toMatchObject({ path: 'tour[0].expect' });
    expect(errorOf(parseScenarioJson(sha256, 's.json', scenario([]), () => null)).issues?.[0]).toMatchObject({
      path: 'tour',
    });
  });
});
