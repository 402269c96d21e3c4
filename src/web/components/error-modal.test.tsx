// @vitest-environment jsdom
import { act, render } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

const loaded = vi.hoisted(() => ({ count: 0 }));
vi.mock('./error-dialog.tsx', () => {
  loaded.count += 1;
  return { ErrorDialog: () => null };
});

const { ErrorModalProvider } = await import('./error-modal.tsx');

afterEach(() => vi.useRealTimers());

describe('the error modal', () => {
  it('fetches its dialog once the page is idle, before any error, so an error on a lost connection can still be shown', async () => {
    vi.useFakeTimers();
    render(
      <ErrorModalProvider>
        <p>página</p>
      </ErrorModalProvider>,
    );
    expect(loaded.count).toBe(0);
    await act(async () => {
      await vi.advanceTimersByTimeAsync(5000);
    });
    vi.useRealTimers();
    await vi.waitFor(() => expect(loaded.count).toBe(1));
  });
});
