import { PassThrough } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createProcedure, signedInAs } from '#server/testing/factories.ts';
import { writeTestLadder } from '#server/testing/ladders.ts';
import { viewingTokensChannel } from '#server/features/viewing/viewing.service.ts';
import { createHandOverLane } from './media-hand-over-lane.ts';

// Behind nginx, repeat range requests answered before Fastify from what the route remembers (decision 021): the same
// answer as the route's, and nothing the route would refuse or would have to look up
const prefix = '/_media-interno/';
let t: TestApp;
let base: string;
let premium: string;
let gratis: string;
let paid: Awaited<ReturnType<typeof createProcedure>>;
let ladder: string;
const lines: string[] = [];

beforeAll(async () => {
  const stream = new PassThrough();
  stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  t = await createTestApp({ mediaAccelRedirect: prefix, logLevel: 'info' }, undefined, { logStream: stream });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  premium = (await signedInAs(t, { type: 'Premium' })).cookie;
  gratis = (await signedInAs(t, { type: 'Gratis' })).cookie;
  paid = await createProcedure(t, { type: 'Premium' });
  ladder = await writeTestLadder(t, paid.fullVideo!, { ready: true });
});
afterAll(async () => t.close());

/**
 * A new viewing token, once this instance has heard its own notification of it: the notification comes back a moment
 * after the answer (on PostgreSQL through LISTEN) and drops the remembered token, so a request between the two would
 * be the route's.
 */
async function newViewingToken(cookie: string): Promise<string> {
  let heard!: () => void;
  const echo = new Promise<void>((resolve) => (heard = resolve));
  const stop = await t.database.listen(viewingTokensChannel, () => heard());
  try {
    const response = await fetch(`${base}/api/viewing/token`, {
      method: 'POST',
      headers: { cookie, origin: testPublicUrl },
    });
    expect(response.status).toBe(200);
    const { token } = (await response.json()) as { token: string };
    await echo;
    return token;
  } finally {
    stop();
  }
}

const requestLines = () =>
  lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'request');
const laneLines = () => requestLines().filter((line) => String(line.reqId).startsWith('lane-'));

/** One request over HTTP; whether the lane answered it, from the request log's line. */
async function get(path: string, cookie?: string, init: RequestInit = {}) {
  const before = laneLines().length;
  const response = await fetch(`${base}${path}`, {
    ...init,
    headers: { ...(cookie ? { cookie } : {}), ...(init.headers as Record<string, string>) },
  });
  await response.arrayBuffer();
  // the log line is written as the answer ends
  await new Promise((resolve) => setTimeout(resolve, 20));
  return { response, byLane: laneLines().length > before };
}

// what a server adds by itself, beside what our code sets
const perConnection = new Set(['date', 'connection', 'keep-alive']);
const ownHeaders = (response: Response) =>
  Object.fromEntries([...response.headers].filter(([name]) => !perConnection.has(name)));

describe('the hand-over lane (MEDIA_ACCEL_REDIRECT)', () => {
  it("answers a full video's repeat request as the route did, header for header, and logs it as the route would", async () => {
    const token = await newViewingToken(premium);
    const url = `/media/${paid.fullVideo}?vt=${token}`;
    const first = await get(url, premium, { headers: { range: 'bytes=0-1048575' } });
    expect(first.byLane).toBe(false);
    expect(first.response.status).toBe(200);
    expect(first.response.headers.get('x-accel-redirect')).toBe(`${prefix}${paid.fullVideo}`);

    const repeat = await get(url, premium, { headers: { range: 'bytes=1048576-2097151' } });
    expect(repeat.byLane).toBe(true);
    expect(repeat.response.status).toBe(200);
    expect(ownHeaders(repeat.response)).toEqual(ownHeaders(first.response));
    expect(ownHeaders(repeat.response)['content-security-policy']).toContain("default-src 'self'");

    const line = laneLines().at(-1)!;
    expect(line).toMatchObject({ method: 'GET', route: '/media/*', status: 200, userId: null, level: 30 });
    // the route pattern, never the address with its viewing token
    expect(JSON.stringify(line)).not.toContain(token);
  });

  it('answers the public demo and preview for anyone, as the route does', async () => {
    for (const key of [paid.demoVideo!, paid.previewImage!]) {
      const first = await get(`/media/${key}`);
      const repeat = await get(`/media/${key}`);
      expect([first.byLane, repeat.byLane]).toEqual([false, true]);
      expect(ownHeaders(repeat.response)).toEqual(ownHeaders(first.response));
      expect(repeat.response.headers.get('cache-control')).toBe('public, max-age=3600');
    }
  });

  it('never answers what the route refuses: a guest, a Basic member, a replaced viewing token', async () => {
    const token = await newViewingToken(premium);
    const url = `/media/${paid.fullVideo}?vt=${token}`;
    await get(url, premium);
    expect((await get(url, premium)).byLane).toBe(true);

    for (const attempt of [1, 2]) {
      const guest = await get(url);
      expect([attempt, guest.response.status, guest.byLane]).toEqual([attempt, 401, false]);
      const basic = await get(url, gratis);
      expect([attempt, basic.response.status, basic.byLane]).toEqual([attempt, 403, false]);
    }

    // another device takes the account's viewing token: the first one's next range is the route's 409, at once
    await newViewingToken(premium);
    const replaced = await get(url, premium);
    expect([replaced.response.status, replaced.byLane]).toEqual([409, false]);
    expect((await get(url, premium)).byLane).toBe(false);
  });

  it('leaves to the route what it does not remember or does not send: HEAD, other parameters, encoded keys, playlists, a removed file', async () => {
    const token = await newViewingToken(premium);
    const url = `/media/${paid.fullVideo}?vt=${token}`;
    await get(url, premium);
    expect((await get(url, premium)).byLane).toBe(true);

    const head = await get(url, premium, { method: 'HEAD' });
    expect([head.response.status, head.byLane]).toEqual([200, false]);
    expect(head.response.headers.get('x-accel-redirect')).toBe(`${prefix}${paid.fullVideo}`);
    expect((await get(`${url}&otro=1`, premium)).byLane).toBe(false);
    expect((await get(`/media/${paid.fullVideo!.replace('/', '%2F')}?vt=${token}`, premium)).byLane).toBe(false);
    const width = await get(`/media/${paid.previewImage}?w=360`);
    expect(width.byLane).toBe(false);

    // playlists are rewritten per viewer by the route, every time
    for (let i = 0; i < 2; i++) {
      const playlist = await get(`/media/${ladder}/master.m3u8?vt=${token}`, premium);
      expect([playlist.response.status, playlist.byLane]).toEqual([200, false]);
    }

    // a file removed from the store is forgotten at once: the route's 404
    await t.storage.delete(paid.guidePdf!);
    const removed = await get(`/media/${paid.guidePdf}`, premium);
    expect([removed.response.status, removed.byLane]).toEqual([404, false]);
  });

  it('steps aside while the server closes, so Fastify answers as it does then', () => {
    const lane = createHandOverLane({
      rememberedVisibility: () => 'private',
      isHeldOpen: () => true,
      handOverHeaders: () => ({}),
      securityHeaders: () => {},
      isClosing: () => true,
      log: t.app.log,
    });
    const request = { method: 'GET', url: '/media/procedures/x/video.mp4', headers: {} };
    expect(lane(request as never, {} as never)).toBe(false);
    expect(lane.answered()).toBe(0);
  });
});

describe('without MEDIA_ACCEL_REDIRECT', () => {
  it('there is no lane: every request is the route', async () => {
    const plain = await createTestApp({ logLevel: 'info' }, undefined, { logStream: new PassThrough() });
    try {
      const procedure = await createProcedure(plain, { type: 'Gratis' });
      await plain.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(plain.app.server.address() as AddressInfo).port}/media/${procedure.demoVideo}`;
      for (let i = 0; i < 2; i++) {
        const response = await fetch(url, { headers: { range: 'bytes=0-9' } });
        expect(response.status).toBe(206);
        expect(response.headers.get('x-accel-redirect')).toBeNull();
        await response.arrayBuffer();
      }
    } finally {
      await plain.close();
    }
  });
});
