import { useEffect, useState, useSyncExternalStore, type RefObject } from 'react';

/** Whether a media query matches now, re-rendering when it starts or stops matching. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** Where the three rails stop fitting side by side (the CSS uses the same width). */
export const NARROW_SCREEN = '(max-width: 1099px)';

/** An element's width in CSS pixels, following its resizes; null until it is laid out. */
export function useElementWidth(ref: RefObject<HTMLElement | null>): number | null {
  const [width, setWidth] = useState<number | null>(null);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry ? entry.contentRect.width : null));
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}
