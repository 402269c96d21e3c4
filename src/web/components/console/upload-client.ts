import type { UploadResult } from '#shared/uploads/uploads.schemas.ts';
import type { ErrorBody } from '#shared/errors.ts';
import { errorMessages } from '#shared/error-messages.ts';
import { messages } from '#shared/messages.ts';
import type { UploadTarget } from '#shared/uploads/uploads.rules.ts';
import { ApiError, api } from '#web/lib/api-client.ts';

export type UploadHandle = { promise: Promise<UploadResult>; abort: () => void };

/** Sends one file with XMLHttpRequest, which (unlike fetch) reports upload progress. */
export function uploadFile(options: {
  target: UploadTarget;
  recordId?: string;
  file: File;
  onProgress: (percent: number) => void;
}): UploadHandle {
  const xhr = new XMLHttpRequest();
  const query = new URLSearchParams({
    target: options.target,
    ...(options.recordId ? { recordId: options.recordId } : {}),
  });
  const promise = new Promise<UploadResult>((resolve, reject) => {
    xhr.open('POST', `/api/admin/uploads?${query}`);
    xhr.responseType = 'json';
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) return resolve(xhr.response as UploadResult);
      const body = (xhr.response ?? {}) as Partial<ErrorBody>;
      const code = body.code ?? (xhr.status === 413 ? 'PAYLOAD_TOO_LARGE' : 'INTERNAL');
      reject(
        new ApiError(xhr.status, { code, message: body.message ?? errorMessages[code].message, fields: body.fields }),
      );
    };
    xhr.onerror = () =>
      reject(
        new ApiError(0, {
          code: 'SERVICE_UNAVAILABLE',
          message:
            globalThis.navigator?.onLine === false ? messages.offline : errorMessages.SERVICE_UNAVAILABLE.message,
        }),
      );
    xhr.onabort = () => reject(new DOMException('Upload aborted', 'AbortError'));
    const form = new FormData();
    form.append('file', options.file, options.file.name);
    xhr.send(form);
  });
  return { promise, abort: () => xhr.abort() };
}

/** Deletes an upload the admin discarded before saving. */
export function discardUpload(key: string): Promise<unknown> {
  return api.post('/api/admin/uploads/discard', { key });
}

/** The /media address of a stored key. */
export function mediaPath(key: string): string {
  return `/media/${key.split('/').map(encodeURIComponent).join('/')}`;
}
