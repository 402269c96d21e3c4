/** Shown under a video that could not go on after its retries (docs/decisions/018-playback-past-signed-url.md). */
export const playbackStoppedMessage =
  'No se pudo continuar la reproducción del video. Revisa tu conexión e inténtalo de nuevo.';
export const playbackRetryLabel = 'Reintentar';

/** Reloads after a media error before the player gives up and shows playbackStoppedMessage. */
export const mediaRetryLimit = 3;

/** What /media answers now for the file the player was playing. */
export type MediaProbe = 'ok' | 'replaced' | 'refused' | 'unreachable';

/** Reads the probe's answer: a redirect (to a fresh signed URL) or bytes are fine; 409 is the single-device rule. */
export function readMediaProbe(response: { type: string; status: number }, code: string | undefined): MediaProbe {
  if (response.type === 'opaqueredirect' || (response.status >= 200 && response.status < 400)) return 'ok';
  if (code === 'VIEWING_TOKEN_REPLACED') return 'replaced';
  if (response.status === 401 || response.status === 403 || response.status === 404) return 'refused';
  return 'unreachable';
}

/**
 * After the failuresInARow-th media error: another device took the viewing (its notice shows), the server
 * refuses the file (no retry can help), or reload — until the limit.
 */
export function nextRecoveryStep(failuresInARow: number, probe: MediaProbe): 'reload' | 'replaced' | 'give-up' {
  if (probe === 'replaced') return 'replaced';
  if (probe === 'refused' || failuresInARow > mediaRetryLimit) return 'give-up';
  return 'reload';
}

/** The media URL with a parameter of its own, so the browser asks /media again instead of reusing the old redirect. */
export function withReloadParam(url: string, reload: string | null): string {
  if (!reload) return url;
  return `${url}${url.includes('?') ? '&' : '?'}reload=${encodeURIComponent(reload)}`;
}
