import { randomUUID } from 'node:crypto';
import type { TestApp } from '#server/testing/test-app.ts';
import { testPublicUrl } from '#server/testing/test-app.ts';
import type { UploadTarget } from '#shared/uploads/uploads.rules.ts';

/** A multipart/form-data body with one file field named `file`. */
export function multipartBody(fileName: string, content: Buffer, contentType = 'application/octet-stream') {
  const boundary = `----cxvet${randomUUID().replaceAll('-', '')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, content, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Posts one file to the console upload endpoint. */
export function postUpload(
  t: TestApp,
  options: { cookie?: string; target: UploadTarget; recordId?: string; fileName: string; content: Buffer },
) {
  const body = multipartBody(options.fileName, options.content);
  const query = new URLSearchParams({
    target: options.target,
    ...(options.recordId ? { recordId: options.recordId } : {}),
  });
  return t.app.inject({
    method: 'POST',
    url: `/api/admin/uploads?${query}`,
    headers: {
      origin: testPublicUrl,
      'content-type': body.contentType,
      ...(options.cookie ? { cookie: options.cookie } : {}),
    },
    payload: body.payload,
  });
}

/** Smallest byte sequences file-type recognises for each accepted format. */
export const sampleBytes = {
  png: Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(200, 1)]),
  jpg: Buffer.concat([Buffer.from('ffd8ffe000104a464946000101', 'hex'), Buffer.alloc(200, 1)]),
  pdf: Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n'),
  mp4: Buffer.concat([Buffer.from('0000001c667479706d703432000000006d70343269736f6d', 'hex'), Buffer.alloc(200, 0)]),
  html: Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>'),
  svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
};

/** Uploads a sample file as an Admin and returns its pending key. */
export async function uploadSample(
  t: TestApp,
  cookie: string,
  target: UploadTarget,
  fileName: string,
  recordId?: string,
): Promise<string> {
  const extension = fileName.split('.').pop() ?? '';
  const sample = (extension === 'jpeg' ? 'jpg' : extension) as keyof typeof sampleBytes;
  const response = await postUpload(t, { cookie, target, recordId, fileName, content: sampleBytes[sample] });
  if (response.statusCode !== 200) throw new Error(`upload failed: ${response.statusCode} ${response.body}`);
  return (response.json() as { key: string }).key;
}
