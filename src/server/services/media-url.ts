/** The public address of a stored file; the media route decides per request whether to serve it. */
export function mediaUrl(key: string | null | undefined): string | null {
  if (!key) return null;
  return `/media/${key.split('/').map(encodeURIComponent).join('/')}`;
}
