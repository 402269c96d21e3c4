import { isSafeKey } from './storage.ts';

const encodedPath = (key: string) => key.split('/').map(encodeURIComponent).join('/');

/** The public address of a stored file; the media route decides per request whether to serve it. */
export function mediaUrl(key: string | null | undefined): string | null {
  if (!key) return null;
  return `/media/${encodedPath(key)}`;
}

/**
 * The X-Accel-Redirect target nginx sends a stored file from (MEDIA_ACCEL_REDIRECT): every segment percent-encoded,
 * so nginx decodes it back to exactly the key; a key that could leave the upload folder never gets one.
 */
export function internalMediaPath(prefix: string, key: string): string {
  if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${key}`);
  return `${prefix}${encodedPath(key)}`;
}
