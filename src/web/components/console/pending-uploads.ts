import { useEffect, useState } from 'react';
import { discardUpload } from './upload-client.ts';

export type PendingUploads = {
  /** Remembers a file uploaded in this form and not yet saved. */
  track: (key: string) => void;
  /** Deletes one of this form's unsaved uploads (replaced or discarded); saved files are left to the server. */
  release: (key: string | null | undefined) => void;
  /** The form was saved: its uploads now belong to the record. */
  commit: () => void;
};

/** Uploads of one form; whatever is not saved is deleted when the form closes. */
export function usePendingUploads(): PendingUploads {
  const [tracker] = useState(() => {
    const keys = new Set<string>();
    return {
      keys,
      track: (key: string) => void keys.add(key),
      release: (key: string | null | undefined) => {
        if (key && keys.delete(key)) void discardUpload(key).catch(() => {});
      },
      commit: () => keys.clear(),
    };
  });
  useEffect(
    () => () => {
      for (const key of tracker.keys) void discardUpload(key).catch(() => {});
      tracker.keys.clear();
    },
    [tracker],
  );
  return tracker;
}
