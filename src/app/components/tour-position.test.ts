import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GAP, placeCard, type Rect } from './tour-position';

const overlaps = (a: Rect, b: Rect) =>
  a.left < b.left + b.width && b.left < a.left + a.width && a.top < b.top + b.height && b.top < a.top + a.height;

describe('placeCard', () => {
  const viewport = { width: 1280, height: 720 };
  const card = { width: 416, height: 260 };

  it('puts the card below a target near the top, above one near the bottom, beside a tall one', () => {
    expect(placeCard({ top: 100, left: 40, width: 300, height: 80 }, card, viewport)).toEqual({
      top: 180 + GAP,
      left: 40,
      maxHeight: 720 - 180 - 2 * GAP,
      shortened: false,
    });
    expect(placeCard({ top: 560, left: 1100, width: 150, height: 80 }, card, viewport)).toMatchObject({
      top: 560 - GAP - 260,
      left: 1280 - 416 - GAP,
      shortened: false,
    });
    expect(placeCard({ top: 200, left: 40, width: 300, height: 400 }, card, viewport)).toMatchObject({
      left: 340 + GAP,
      shortened: false,
    });
  });

  it('shortens the card on the roomier side when nothing else fits (a wide, tall target on a phone)', () => {
    expect(
      placeCard(
        { top: 150, left: 0, width: 390, height: 500 },
        { width: 366, height: 400 },
        { width: 390, height: 844 },
      ),
    ).toEqual({
      top: 650 + GAP,
      left: GAP,
      maxHeight: 844 - 650 - 2 * GAP,
      shortened: true,
    });
  });

  it('never overlaps the part of the target on screen', () => {
    const rect = fc.record({
      top: fc.integer({ min: -400, max: 900 }),
      left: fc.integer({ min: 0, max: 1200 }),
      width: fc.integer({ min: 1, max: 1280 }),
      height: fc.integer({ min: 1, max: 700 }),
    });
    const size = fc.record({ width: fc.integer({ min: 200, max: 420 }), height: fc.integer({ min: 50, max: 700 }) });
    fc.assert(
      fc.property(rect, size, (target, cardSize) => {
        const placed = placeCard(target, cardSize, viewport);
        const drawn = {
          top: placed.top,
          left: placed.left,
          width: cardSize.width,
          height: Math.min(cardSize.height, placed.maxHeight),
        };
        const visible = {
          top: Math.max(target.top, 0),
          left: target.left,
          width: target.width,
          height: Math.min(target.top + target.height, 720) - Math.max(target.top, 0),
        };
        return visible.height <= 0 || drawn.height === 0 || !overlaps(drawn, visible);
      }),
    );
  });
});
