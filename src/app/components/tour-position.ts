export interface Rect {
  readonly top: number;
  readonly left: number;
  readonly width: number;
  readonly height: number;
}

export interface Size {
  readonly width: number;
  readonly height: number;
}

/**
 * Where the card goes, in viewport pixels; `maxHeight` below its natural height when no side has room for all of it.
 */
export interface Placement {
  readonly top: number;
  readonly left: number;
  readonly maxHeight: number;
  /** True when the card had to be shortened: scrolling the target higher may give it room. */
  readonly shortened: boolean;
}

export const GAP = 12;

const clamp = (value: number, low: number, high: number) => Math.max(low, Math.min(value, Math.max(low, high)));

/**
 * Puts the card beside its target, never over it: below when it fits, else above, else right or left, else on the
 * roomier of below and above, shortened to fit. Without a target it sits in the bottom right corner.
 */
export function placeCard(target: Rect | null, card: Size, viewport: Size): Placement {
  const corner = {
    top: Math.max(GAP, viewport.height - card.height - GAP),
    left: Math.max(GAP, viewport.width - card.width - GAP),
    maxHeight: viewport.height - 2 * GAP,
    shortened: false,
  };
  if (!target) return corner;
  const bottom = target.top + target.height;
  const right = target.left + target.width;
  const alignedLeft = clamp(target.left, GAP, viewport.width - card.width - GAP);
  const below = viewport.height - bottom - 2 * GAP;
  const above = target.top - 2 * GAP;
  if (card.height <= below) return { top: bottom + GAP, left: alignedLeft, maxHeight: below, shortened: false };
  if (card.height <= above)
    return { top: target.top - GAP - card.height, left: alignedLeft, maxHeight: above, shortened: false };
  const besideTop = clamp(target.top, GAP, viewport.height - card.height - GAP);
  const height = viewport.height - 2 * GAP;
  if (card.height <= height && card.width <= viewport.width - right - 2 * GAP)
    return { top: besideTop, left: right + GAP, maxHeight: height, shortened: false };
  if (card.height <= height && card.width <= target.left - 2 * GAP)
    return { top: besideTop, left: target.left - GAP - card.width, maxHeight: height, shortened: false };
  if (below >= above) return { top: bottom + GAP, left: alignedLeft, maxHeight: Math.max(0, below), shortened: true };
  return { top: GAP, left: alignedLeft, maxHeight: Math.max(0, above), shortened: true };
}
