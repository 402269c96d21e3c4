import { useQueryClient } from '@tanstack/react-query';
import type { MediaPlayerInstance } from '@vidstack/react';
import { useEffect, useRef } from 'react';
import type { SavePosition } from '#shared/watching/watching.schemas.ts';
import { saveEverySeconds } from '#shared/watching/watching.rules.ts';
import { ApiError } from '#web/lib/api-client.ts';
import { watchingApi, watchingKeys } from './watching.api.ts';

type Sample = { time: number; duration: number };

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
    const url = watchingApi.positionUrl(procedureId);
    let stopped = false;

    // startsSpan: playback (re)starts here, so the server measures the next stretch played from this save
    const body = (startsSpan = false): SavePosition | null => {
      const { time, duration } = latest.current;
      if (!(duration > 0) || !Number.isFinite(duration)) return null;
      if (!startsSpan && (time <= 0 || (saved.current !== null && Math.abs(saved.current - time) < 1))) return null;
      saved.current = time;
      return { positionSeconds: Math.min(time, duration), durationSeconds: duration, viewingToken: token, startsSpan };
    };

    const send = (startsSpan = false): Promise<void> => {
      const position = body(startsSpan);
      if (!position || stopped) return Promise.resolve();
      return watchingApi.savePosition(procedureId, position).catch((error: unknown) => {
        const status = error instanceof ApiError ? error.status : 0;
        // another device took the video: this one stops writing
        if (status === 409 || status === 403 || status === 401) stopped = true;
        else if (status === 0) saved.current = null;
      });
    };

    // text/plain: a Blob type every browser's sendBeacon accepts without a preflight
    const sendBeacon = () => {
      const position = body();
      if (!position || stopped) return;
      const json = JSON.stringify(position);
      const queued =
        typeof navigator.sendBeacon === 'function' &&
        navigator.sendBeacon(url, new Blob([json], { type: 'text/plain;charset=UTF-8' }));
      if (!queued) void watchingApi.savePosition(procedureId, position).catch(() => undefined);
    };

    let wasPaused = true;
    let wasSeeking = false;
    const unsubscribe = player.subscribe(({ currentTime, duration, paused, ended, seeking }) => {
      latest.current = { time: currentTime, duration };
      if ((paused || ended) && !wasPaused) void send();
      else if (!(paused || ended) && (wasPaused || (wasSeeking && !seeking))) void send(true);
      wasPaused = paused || ended;
      wasSeeking = seeking;
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
