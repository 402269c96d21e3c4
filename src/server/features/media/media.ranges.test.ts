import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createProcedure, signedInAs } from '#server/testing/factories.ts';
import { deployedNginxConfig, freePort, nginxBinary, startNginx } from '#server/testing/nginx.ts';

// RFC 9110 §13-14 as a browser, a PDF reader or a download manager asks: the same answers from the app alone and
// from deploy/nginx.conf in front of it (MEDIA_ACCEL_REDIRECT)
const size = 1000;
const file = Buffer.from(Array.from({ length: size }, (_, index) => index % 251));
const past = new Date(Date.now() - 365 * 86_400_000).toUTCString();
const future = new Date(Date.now() + 86_400_000).toUTCString();

type Case = {
  name: string;
  headers: (etag: string) => Record<string, string>;
  status: number;
  range?: [start: number, end: number];
  /** nginx also reads If-Unmodified-Since after a passing If-Match; they disagree only on contradictory validators. */
  appOnly?: boolean;
};
const cases: Case[] = [
  { name: 'one range', headers: () => ({ range: 'bytes=10-19' }), status: 206, range: [10, 19] },
  { name: 'an open-ended range', headers: () => ({ range: 'bytes=990-' }), status: 206, range: [990, 999] },
  { name: 'a suffix range', headers: () => ({ range: 'bytes=-10' }), status: 206, range: [990, 999] },
  { name: 'a suffix longer than the file', headers: () => ({ range: 'bytes=-999999' }), status: 206, range: [0, 999] },
  { name: 'an end past the file', headers: () => ({ range: 'bytes=500-5000' }), status: 206, range: [500, 999] },
  { name: 'several ranges (the whole file)', headers: () => ({ range: 'bytes=0-0,10-20' }), status: 200 },
  { name: 'a range that starts past the end', headers: () => ({ range: 'bytes=5000-' }), status: 416 },
  { name: 'a malformed Range (ignored)', headers: () => ({ range: 'lines=1-2' }), status: 200 },
  { name: 'If-Match with the current tag', headers: (etag) => ({ 'if-match': etag }), status: 200 },
  { name: 'If-Match *', headers: () => ({ 'if-match': '*' }), status: 200 },
  { name: 'If-Match with another tag', headers: () => ({ 'if-match': '"otra-version"' }), status: 412 },
  { name: 'If-Match with a weak tag', headers: (etag) => ({ 'if-match': `W/${etag}` }), status: 412 },
  {
    name: 'If-Match with another tag and a Range',
    headers: () => ({ 'if-match': '"otra-version"', range: 'bytes=0-9' }),
    status: 412,
  },
  { name: 'If-Unmodified-Since before the file', headers: () => ({ 'if-unmodified-since': past }), status: 412 },
  { name: 'If-Unmodified-Since after the file', headers: () => ({ 'if-unmodified-since': future }), status: 200 },
  {
    name: 'If-Match passing, so If-Unmodified-Since is not read',
    headers: (etag) => ({ 'if-match': etag, 'if-unmodified-since': past }),
    status: 200,
    appOnly: true,
  },
  { name: 'If-None-Match with the current tag', headers: (etag) => ({ 'if-none-match': etag }), status: 304 },
];

/** A Premium member, the guide PDF of a Premium procedure, and where to ask for it: the app itself or nginx. */
function useMediaSite(options: { behindNginx: boolean }) {
  const site = { base: '', url: '', cookie: '' };
  let t: TestApp | undefined;
  let nginx: Awaited<ReturnType<typeof startNginx>> | undefined;
  let workDir: string | undefined;
  beforeAll(async () => {
    t = await createTestApp(options.behindNginx ? { mediaAccelRedirect: '/_media-interno/', trustProxy: 1 } : {});
    site.cookie = (await signedInAs(t, { type: 'Premium' })).cookie;
    const paid = await createProcedure(t, { type: 'Premium' });
    await t.storage.put(paid.guidePdf!, Readable.from([file]));
    const token = (
      await t.app.inject({
        method: 'POST',
        url: '/api/viewing/token',
        headers: { cookie: site.cookie, origin: testPublicUrl },
      })
    ).json().token;
    site.url = `/media/${paid.guidePdf}?vt=${token}`;
    site.base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    if (!options.behindNginx) return;
    workDir = await mkdtemp(path.join(tmpdir(), 'cxvet-ranges-'));
    const port = await freePort();
    nginx = await startNginx({
      workDir,
      port,
      httpConfig: await deployedNginxConfig({
        appPort: Number(new URL(site.base).port),
        uploadsDir: t.storage.root!,
        port,
      }),
    });
    site.base = nginx.url;
  });
  afterAll(async () => {
    await nginx?.stop();
    await t?.close();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });
  return site;
}

async function check(site: { base: string; url: string; cookie: string }, { headers, status, range }: Case) {
  // fetch adds 'Cache-Control: no-cache' to a conditional request unless it has one: a browser's reload does not
  const base = { cookie: site.cookie, 'cache-control': 'max-age=0' };
  const first = await fetch(`${site.base}${site.url}`, { headers: base });
  expect(first.status).toBe(200);
  const etag = first.headers.get('etag')!;
  await first.arrayBuffer();
  const response = await fetch(`${site.base}${site.url}`, { headers: { ...base, ...headers(etag) } });
  const body = Buffer.from(await response.arrayBuffer());
  expect(response.status).toBe(status);
  if (status === 200) expect(body.equals(file)).toBe(true);
  if (status === 416) expect(response.headers.get('content-range')).toBe(`bytes */${size}`);
  if (range) {
    expect(response.headers.get('content-range')).toBe(`bytes ${range[0]}-${range[1]}/${size}`);
    expect(body.equals(file.subarray(range[0], range[1] + 1))).toBe(true);
  }
}

describe('byte ranges and preconditions from the app', () => {
  const site = useMediaSite({ behindNginx: false });
  it.each(cases.map((entry) => [entry.name, entry] as const))('%s', (_, entry) => check(site, entry));
});

describe.skipIf(!nginxBinary)('byte ranges and preconditions behind nginx (the app checks, nginx sends)', () => {
  const site = useMediaSite({ behindNginx: true });
  it.each(cases.filter((entry) => !entry.appOnly).map((entry) => [entry.name, entry] as const))('%s', (_, entry) =>
    check(site, entry),
  );
});
