import { useState } from 'react';

/**
 * The last non-null value, kept after `value` turns null: a modal opened by a value (`opened={value !== null}`)
 * still shows its title and content while its closing transition runs. Without it the closing dialog has no
 * name for a moment, which screen readers announce and axe reports (aria-dialog-name).
 */
export function useHeldWhileClosing<T>(value: T | null): T | null {
  const [held, setHeld] = useState(value);
  if (value !== null && value !== held) setHeld(value);
  return value ?? held;
}
