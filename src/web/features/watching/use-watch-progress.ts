import { useQueryClient } from '@tanstack/react-query';
import type { MediaPlayerInstance } from '@vidstack/react';
import { useEffect, useRef } from 'react';
import { saveEverySeconds } from '#shared/watching/watching.rules.ts';
import { watchingKeys } from './api.ts';

type Sample = { time: number; duration: number };

const positionUrl = (procedureId: string) => `/api/watching/procedures/${encodeURIComponent(procedureId)}/position`;

/**
 * Saves a signed-in member's place in a full video: every few seconds while it plays, on pause and
 * end, and with a beacon when the page is hidden or left. Only the device holding `token` saves.
 */
export function useWatchProgress(procedureId: string, token: string | null, player: MediaPlayerInstance | null) {
  const latest = useRef<Sample>({ time: 0, duration: 0 });
  const saved = useRef<number | null>(null);
  const queryClient = useQueryClient();

  useEffect(() => {
    if (!token || !player) return;
    const url = positionUrl(procedureId);
    let stopped = false;

    const body = (): string | null => {
      const { time, duration } = latest.current;
      if (!(duration > 0) || !Number.isFinite(duration) || time <= 0) return null;
      if (saved.current !== null && Math.abs(saved.current - time) < 1) return null;
      saved.current = time;
      return JSON.stringify({ positionSeconds: Math.min(time, duration), durationSeconds: duration, viewingToken: token });
    };

    const send = (): Promise<void> => {
      const json = body();
      if (!json || stopped) return Promise.resolve();
      return fetch(url, { method: 'POST', credentials: 'same-origin', keepalive: true, headers: { 'content-type': 'application/json' }, body: json })
        .then((response) => {
          // another device took the video: this one stops writing
          if (response.status === 409 || response.status === 403 || response.status === 401) stopped = true;
        })
        .catch(() => {
          saved.current = null;
        });
    };

    // text/plain: a Blob type every browser's sendBeacon accepts without a preflight
    const sendBeacon = () => {
      const json = body();
      if (!json || stopped) return;
      const queued = typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(url, new Blob([json], { type: 'text/plain;charset=UTF-8' }));
      if (!queued) void fetch(url, { method: 'POST', credentials: 'same-origin', keepalive: true, headers: { 'content-type': 'application/json' }, body: json }).catch(() => undefined);
    };

    let wasPaused = true;
    const unsubscribe = player.subscribe(({ currentTime, duration, paused, ended }) => {
      latest.current = { time: currentTime, duration };
      if ((paused || ended) && !wasPaused) void send();
      wasPaused = paused || ended;
    });
    const timer = window.setInterval(() => {
      if (!wasPaused) void send();
    }, saveEverySeconds * 1000);
    const onHidden = () => {
      if (document.visibilityState === 'hidden') sendBeacon();
    };
    window.addEventListener('pagehide', sendBeacon);
    document.addEventListener('visibilitychange', onHidden);
    return () => {
      unsubscribe();
      window.clearInterval(timer);
      window.removeEventListener('pagehide', sendBeacon);
      document.removeEventListener('visibilitychange', onHidden);
      // leaving the procedure inside the app: the page lives on, so the rows it shows next wait for this save
      void send().then(() => queryClient.invalidateQueries({ queryKey: watchingKeys.all }));
    };
  }, [procedureId, token, player, queryClient]);
}

/** Seeks to `seconds` once the player can, then plays. */
export function seekWhenReady(player: MediaPlayerInstance, seconds: number) {
  const go = () => {
    player.currentTime = seconds;
    void player.play().catch(() => undefined);
  };
  if (player.state.canPlay) {
    go();
    return;
  }
  const stop = player.subscribe(({ canPlay }) => {
    if (!canPlay) return;
    queueMicrotask(() => stop());
    go();
  });
}
