import { useSyncExternalStore } from 'react';

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
