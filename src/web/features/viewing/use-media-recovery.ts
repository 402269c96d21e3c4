import { useCallback, useEffect, useRef, useState } from 'react';
import { nextRecoveryStep, readMediaProbe, withReloadParam, type MediaProbe } from './media-recovery.ts';

/** A stall this long while playing or seeking counts as a failed source. */
const stallSeconds = 6;

async function probeMedia(url: string): Promise<MediaProbe> {
  try {
    // one byte, and the redirect not followed: enough to learn whether /media still serves this viewer
    const response = await fetch(url, {
      headers: { range: 'bytes=0-0' },
      redirect: 'manual',
      credentials: 'same-origin',
      cache: 'no-store',
    });
    const body =
      response.status >= 400 ? ((await response.json().catch(() => null)) as { code?: string } | null) : null;
    return readMediaProbe(response, body?.code);
  } catch {
    return 'unreachable';
  }
}

/**
 * Keeps a video going when its source fails mid-playback (on object storage the signed URL the browser
 * reuses expires): asks /media again under a fresh parameter, then puts back the position and the
 * playing/paused state; after mediaRetryLimit failures in a row `failed` is set, and `retry` starts over.
 * When /media answers that another device took the viewing, onReplaced runs instead of any retry.
 */
export function useMediaRecovery(options: { media: HTMLVideoElement | null; onReplaced?: () => void }) {
  const { media } = options;
  const [reload, setReload] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  const failures = useRef(0);
  const resume = useRef<{ time: number; playing: boolean } | null>(null);
  const onReplaced = useRef(options.onReplaced);
  useEffect(() => {
    onReplaced.current = options.onReplaced;
  });

  useEffect(() => {
    if (!media) return;
    let active = true;
    let progressFrom = Number.POSITIVE_INFINITY;
    // Chromium pauses on a media error before the listeners run: the wish to play is read from the events
    let wantsToPlay = !media.paused;
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    const disarm = () => {
      clearTimeout(watchdog);
      watchdog = undefined;
    };

    const recover = () => {
      disarm();
      const source = media.currentSrc || media.src;
      // blob: is Media Source (hls.js), which recovers by itself; an error before any source is not ours either
      if (!source || source.startsWith('blob:')) return;
      resume.current ??= { time: media.currentTime, playing: wantsToPlay };
      failures.current += 1;
      const failuresInARow = failures.current;
      const next = `${Date.now().toString(36)}${failuresInARow}`;
      void probeMedia(withReloadParam(stripReloadParam(source), next)).then((probe) => {
        if (!active) return;
        const step = nextRecoveryStep(failuresInARow, probe);
        if (step === 'replaced') onReplaced.current?.();
        else if (step === 'give-up') setFailed(true);
        else setReload(next);
      });
    };
    // Chromium retries a refused range request silently for many seconds before the error: a wait this long is one too
    const onStall = () => {
      if (watchdog || (media.paused && !media.seeking) || resume.current) return;
      watchdog = setTimeout(recover, stallSeconds * 1000);
    };
    const onPlay = () => {
      wantsToPlay = true;
    };
    const onPause = () => {
      if (!media.error) wantsToPlay = false;
      disarm();
    };
    const onLoadedMetadata = () => {
      const at = resume.current;
      if (!at) return;
      resume.current = null;
      progressFrom = at.time;
      if (at.time > 0) media.currentTime = at.time;
      if (at.playing) void media.play().catch(() => undefined);
    };
    // bytes arrived again (a seek completed, or playback moved on): the next failure starts a new count
    const onProgress = () => {
      disarm();
      if (resume.current) return;
      if (media.currentTime >= progressFrom + 1 || !Number.isFinite(progressFrom)) failures.current = 0;
    };
    const onSeeked = () => {
      disarm();
      if (!resume.current) failures.current = 0;
    };

    const listeners: [string, () => void][] = [
      ['error', recover],
      ['waiting', onStall],
      ['stalled', onStall],
      ['seeking', onStall],
      ['play', onPlay],
      ['pause', onPause],
      ['loadedmetadata', onLoadedMetadata],
      ['playing', onProgress],
      ['timeupdate', () => !media.seeking && !media.paused && media.readyState >= 3 && onProgress()],
      ['seeked', onSeeked],
    ];
    for (const [name, listener] of listeners) media.addEventListener(name, listener);
    return () => {
      active = false;
      disarm();
      for (const [name, listener] of listeners) media.removeEventListener(name, listener);
    };
  }, [media]);

  const retry = useCallback(() => {
    failures.current = 0;
    setFailed(false);
    setReload(`${Date.now().toString(36)}0`);
  }, []);

  /** The source to give the player: the original until the first reload. */
  const sourceOf = useCallback((url: string) => withReloadParam(url, reload), [reload]);
  return { sourceOf, failed, retry };
}

function stripReloadParam(url: string): string {
  const parsed = new URL(url, window.location.href);
  parsed.searchParams.delete('reload');
  return parsed.pathname + parsed.search;
}
