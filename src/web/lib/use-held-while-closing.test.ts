// @vitest-environment jsdom
import { renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useHeldWhileClosing } from './use-held-while-closing.ts';

describe('useHeldWhileClosing', () => {
  it('is null until a value comes, keeps the last value once it is gone, and follows the next one', () => {
    const notice = { title: 'Diplomado activado' };
    const next = { title: 'Eliminar Diplomado' };
    const { result, rerender } = renderHook(
      ({ value }: { value: { title: string } | null }) => useHeldWhileClosing(value),
      {
        initialProps: { value: null as { title: string } | null },
      },
    );
    expect(result.current).toBeNull();
    rerender({ value: notice });
    expect(result.current).toBe(notice);
    // closing: the modal still names itself while its transition runs
    rerender({ value: null });
    expect(result.current).toBe(notice);
    rerender({ value: next });
    expect(result.current).toBe(next);
    rerender({ value: null });
    expect(result.current).toBe(next);
  });
});
