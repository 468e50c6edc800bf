import type { ButtonHTMLAttributes } from 'react';

/**
 * A button that stays focusable while it is unavailable (aria-disabled, clicks ignored). A `disabled`
 * button that its own action disables drops the keyboard focus to <body>; this one keeps it.
 */
export function SteadyButton({
  unavailable,
  onClick,
  type = 'button',
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { unavailable: boolean; type?: 'button' | 'submit' }) {
  return (
    <button
      {...rest}
      type={type}
      aria-disabled={unavailable ? 'true' : undefined}
      onClick={(event) => {
        if (unavailable) event.preventDefault();
        else onClick?.(event);
      }}
    />
  );
}
