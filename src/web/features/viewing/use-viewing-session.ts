import { useCallback, useEffect, useState } from 'react';
import { tokenReplacedEvent } from '#shared/viewing/viewing.rules.ts';
import { viewingApi } from './viewing.api.ts';

type Outcome = { attempt: number; status: 'active' | 'failed' | 'replaced'; token: string | null };
type ViewingState =
  { status: 'idle' | 'pending' | 'replaced' | 'failed'; token: null } | { status: 'active'; token: string };

/**
 * The single-device rule: opening a procedure takes the account's viewing slot and listens
 * for another device taking it; `reclaim` takes it back ('Usar en este dispositivo').
 */
export function useViewingSession(enabled: boolean) {
  const [attempt, setAttempt] = useState(0);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  useEffect(() => {
    if (!enabled) return;
    let cancelled = false;
    viewingApi
      .takeToken()
      .then(({ token }) => {
        if (!cancelled) setOutcome({ attempt, status: 'active', token });
      })
      .catch(() => {
        if (!cancelled) setOutcome({ attempt, status: 'failed', token: null });
      });
    return () => {
      cancelled = true;
    };
  }, [enabled, attempt]);

  const current = enabled && outcome?.attempt === attempt ? outcome : null;
  const token = current?.status === 'active' ? current.token : null;

  useEffect(() => {
    if (!token) return;
    const source = new EventSource(viewingApi.eventsUrl(token));
    source.addEventListener(tokenReplacedEvent, () => {
      source.close();
      setOutcome((previous) =>
        previous?.token === token ? { ...previous, status: 'replaced', token: null } : previous,
      );
    });
    return () => source.close();
  }, [token]);

  const reclaim = useCallback(() => setAttempt((value) => value + 1), []);
  /** /media refused the token as taken by another device (the event stream may not have told us yet). */
  const markReplaced = useCallback(
    () =>
      setOutcome((previous) =>
        previous?.status === 'active' ? { ...previous, status: 'replaced', token: null } : previous,
      ),
    [],
  );
  const state: ViewingState = !enabled
    ? { status: 'idle', token: null }
    : !current
      ? { status: 'pending', token: null }
      : current.status === 'active' && current.token
        ? { status: 'active', token: current.token }
        : { status: current.status === 'active' ? 'failed' : current.status, token: null };
  return { ...state, reclaim, markReplaced };
}
