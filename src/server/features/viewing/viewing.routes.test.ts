import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createUser, loginCookie, signedInAs } from '#server/testing/factories.ts';

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => t.close());

async function issue(cookie: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/viewing/token`, {
    method: 'POST',
    headers: { cookie, origin: testPublicUrl },
  });
  return ((await response.json()) as { token: string }).token;
}

/** Reads the event stream until `event: replaced` arrives or the time runs out. */
async function waitForReplaced(cookie: string, token: string, trigger?: () => Promise<unknown>, timeoutMs = 5000) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(`${baseUrl}/api/viewing/events?token=${token}`, {
      headers: { cookie },
      signal: controller.signal,
    });
    expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let triggered = false;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return false;
      text += decoder.decode(value);
      if (text.includes('event: replaced')) return true;
      if (!triggered && trigger) {
        triggered = true;
        await trigger();
      }
    }
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

/** Opens the event stream and resolves true when the server ends it, false if it is still open after the time. */
async function streamEnds(cookie: string, token: string, trigger: () => Promise<unknown>, timeoutMs = 5000) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    const response = await fetch(`${baseUrl}/api/viewing/events?token=${token}`, {
      headers: { cookie },
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    await reader.read();
    await trigger();
    for (;;) {
      const { done } = await reader.read();
      if (done) return true;
    }
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

describe('viewing events', () => {
  it("ends the stream of a session closed from another device's 'Mis dispositivos'", async () => {
    const user = await createUser(t, { type: 'Premium' });
    const desk = await loginCookie(t, user.email);
    const phone = await loginCookie(t, user.email);
    const token = await issue(phone);
    const list = (await (await fetch(`${baseUrl}/api/account/sessions`, { headers: { cookie: desk } })).json()) as {
      sessions: { id: string; isCurrent: boolean; isPlaying: boolean }[];
    };
    const phoneSession = list.sessions.find((session) => !session.isCurrent)!;
    expect(phoneSession.isPlaying).toBe(true);
    const closeIt = () =>
      fetch(`${baseUrl}/api/account/sessions/${phoneSession.id}`, {
        method: 'DELETE',
        headers: { cookie: desk, origin: testPublicUrl },
      });
    expect(await streamEnds(phone, token, closeIt)).toBe(true);
  });

  it('keeps the stream of a session that stays signed in when another one is closed', async () => {
    const user = await createUser(t, { type: 'Premium' });
    const desk = await loginCookie(t, user.email);
    const phone = await loginCookie(t, user.email);
    const tablet = await loginCookie(t, user.email);
    const token = await issue(phone);
    const list = (await (await fetch(`${baseUrl}/api/account/sessions`, { headers: { cookie: desk } })).json()) as {
      sessions: { id: string; isCurrent: boolean; isPlaying: boolean }[];
    };
    const tabletSession = list.sessions.find((session) => !session.isCurrent && !session.isPlaying)!;
    expect(tablet).not.toBe(phone);
    const closeIt = () =>
      fetch(`${baseUrl}/api/account/sessions/${tabletSession.id}`, {
        method: 'DELETE',
        headers: { cookie: desk, origin: testPublicUrl },
      });
    expect(await streamEnds(phone, token, closeIt, 1500)).toBe(false);
  });

  it('tells a watching device live when another device opens a procedure', async () => {
    const { cookie } = await signedInAs(t, { type: 'Premium' });
    const first = await issue(cookie);
    expect(await waitForReplaced(cookie, first, () => issue(cookie))).toBe(true);
  });

  it('tells at once a device whose token is already stale', async () => {
    const { cookie } = await signedInAs(t, { type: 'Gratis' });
    const old = await issue(cookie);
    await issue(cookie);
    expect(await waitForReplaced(cookie, old)).toBe(true);
  });

  it('stays quiet for the device holding the token when another account opens one', async () => {
    const mine = await signedInAs(t, { type: 'Premium' });
    const other = await signedInAs(t, { type: 'Premium' });
    const token = await issue(mine.cookie);
    expect(await waitForReplaced(mine.cookie, token, () => issue(other.cookie), 1500)).toBe(false);
  });

  it('keeps at most five open streams per account, closing the oldest first', async () => {
    const { cookie } = await signedInAs(t, { type: 'Premium' });
    const token = await issue(cookie);
    const controller = new AbortController();
    try {
      const open = async () => {
        const response = await fetch(`${baseUrl}/api/viewing/events?token=${token}`, {
          headers: { cookie },
          signal: controller.signal,
        });
        const reader = response.body!.getReader();
        await reader.read(); // the stream is registered once its first bytes arrive
        return reader;
      };
      const readers = [];
      for (let index = 0; index < 6; index++) readers.push(await open());
      // the oldest stream is told to wait a minute before reconnecting, then ends
      const decoder = new TextDecoder();
      let text = '';
      for (;;) {
        const { value, done } = await readers[0]!.read();
        if (done) break;
        text += decoder.decode(value);
      }
      expect(text).toContain('retry: 60000');
      // the newest is still open: a token change reaches it
      const pending = readers[5]!.read();
      await issue(cookie);
      const { value } = await pending;
      expect(new TextDecoder().decode(value)).toContain('event: replaced');
    } finally {
      controller.abort();
    }
  });

  it('refuses a guest', async () => {
    const response = await fetch(`${baseUrl}/api/viewing/events?token=x`);
    expect(response.status).toBe(401);
  });
});
