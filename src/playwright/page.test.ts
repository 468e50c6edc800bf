// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { VERDICT_HEADLINES } from '../app/components/DrillPanel';
import { DRILL_HEADLINES } from './page';

describe('the page object', () => {
  it('reads the drill verdict by the headlines the Fire drill view shows', () => {
    expect(DRILL_HEADLINES).toEqual(VERDICT_HEADLINES);
  });
});
