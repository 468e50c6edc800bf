import { describe, expect, it } from 'vitest';
import { parseScenarioJson } from '../passes/validate';
import { buildContract, buildRecord, errorOf } from '../test-support/builders';

const control = { id: 'c', label: 'C', explanation: 'Removes a.', patches: [{ op: 'removeRecord', id: 'a' }] };
const lateChange = { id: 'l', label: 'L', explanation: 'Removes a.', patches: [{ op: 'removeRecord', id: 'a' }] };
const scenario = (tour: unknown) => JSON.stringify({ id: 's', title: 'S', contract: buildContract(), records: [buildRecord({ id: 'a' })], controls: [control], lateChanges: [lateChange], tour }, null, 2);

describe('a scenario file\'s tour', () => {
  it('is read with its steps, and an absent one stays absent', () => {
    const tour = [
      { do: 'switchOn', control: 'c', title: 'T', shows: 'S', expect: { notInPacket: ['a'], outcome: 'packet' } },
      { do: 'freeze', title: 'F', shows: 'S' },
      { do: 'inject', lateChange: 'l', title: 'I', shows: 'S' },
      { do: 'attempt', title: 'A', shows: 'S', expect: { verdict: 'recompile_required' } },
    ];
    const parsed = parseScenarioJson('s.json', scenario(tour), () => null);
    expect(parsed.ok && parsed.value.scenario.tour).toEqual(tour);
    const without = parseScenarioJson('s.json', scenario(undefined), () => null);
    expect(without.ok && without.value.scenario.tour).toBeUndefined();
  });

  it('refuses a step naming a control or late change the scenario lacks, with its line', () => {
    const error = errorOf(parseScenarioJson('s.json', scenario([{ do: 'switchOff', control: 'nope', title: 'T', shows: 'S' }, { do: 'inject', lateChange: 'c', title: 'T', shows: 'S' }]), () => null));
    expect(error.issues).toEqual([
      expect.objectContaining({ path: 'tour[0].control', message: 'names a control the scenario does not declare (got "nope")', line: 107 }),
      expect.objectContaining({ path: 'tour[1].lateChange', message: 'names a late change the scenario does not declare (got "c")', line: 113 }),
    ]);
  });

  it('refuses an unknown action, an unknown expectation and an empty tour', () => {
    expect(errorOf(parseScenarioJson('s.json', scenario([{ do: 'wave', title: 'T', shows: 'S' }]), () => null)).issues?.[0]).toMatchObject({ path: 'tour[0].do' });
    expect(errorOf(parseScenarioJson('s.json', scenario([{ do: 'freeze', title: 'T', shows: 'S', expect: { inTrace: ['a'] } }]), () => null)).issues?.[0]).toMatchObject({ path: 'tour[0].expect' });
    expect(errorOf(parseScenarioJson('s.json', scenario([]), () => null)).issues?.[0]).toMatchObject({ path: 'tour' });
  });
});
