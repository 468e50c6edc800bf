import { describe, expect, it } from 'vitest';
import { sampleScenario } from '../test-support';
import { GENERIC_CONTROLS, placeOf, tourOf } from './tour-steps';

const control = (index: number) => ({ id: `c${index}`, label: `Control ${index}`, explanation: 'e', records: [] });

describe('tourOf', () => {
  it("runs a scenario file's own steps as written", () => {
    const tour = tourOf(
      sampleScenario({
        tour: [
          {
            do: 'inject',
            lateChange: 'promote-run-0880',
            title: 'Late',
            shows: 'Declared.',
            expect: { notInPacket: ['RUN-0880'] },
          },
          { do: 'attempt', title: 'Go on?', shows: 'Stale.' },
        ],
      }),
    );
    expect(tour).toEqual([
      {
        action: { do: 'inject', lateChange: 'promote-run-0880' },
        title: 'Late',
        shows: 'Declared.',
        expect: { notInPacket: ['RUN-0880'] },
      },
      { action: { do: 'attempt' }, title: 'Go on?', shows: 'Stale.', expect: null },
    ]);
  });

  it('builds on and off for the first controls, then the drill on the first late change; nothing without either', () => {
    const tour = tourOf(sampleScenario({ controls: Array.from({ length: 20 }, (_, index) => control(index)) }));
    expect(tour).toHaveLength(2 * GENERIC_CONTROLS + 4);
    expect(tour.slice(0, 2).map((step) => step.action)).toEqual([
      { do: 'switchOn', control: 'c0' },
      { do: 'switchOff', control: 'c0' },
    ]);
    expect(tour.slice(-4).map((step) => step.action)).toEqual([
      { do: 'freeze' },
      { do: 'inject', lateChange: 'promote-run-0880' },
      { do: 'attempt' },
      { do: 'recompile' },
    ]);
    expect(tour.every((step) => step.shows === null && step.expect === null)).toBe(true);
    expect(tourOf(sampleScenario({ controls: [], lateChanges: [] }))).toEqual([]);
  });

  it("takes a control's step to the Contract view and a drill step to the fire drill", () => {
    expect(placeOf({ do: 'switchOff', control: 'c' })).toEqual({ workspace: 'debugger', view: 'contract' });
    expect(placeOf({ do: 'recompile' })).toEqual({ workspace: 'drill' });
  });
});
