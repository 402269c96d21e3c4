import { describe, expect, it } from 'vitest';
import type { FastifyRequest } from 'fastify';
import { anyChange, type Handler } from '#server/db/channels.ts';
import type { users } from '#server/db/schema/index.ts';
import { createSessionCache, sessionDroppingChannels, verifiedSessionMs } from './session-cache.ts';

// The verified-session cache against a database whose LISTEN the test takes down and brings back as the PostgreSQL
// listener and the embedded database's thread do: `listening()` false from the drop, `anyChange` delivered at the drop
// and again once every channel listens again.

function fakeDatabase(options: { failingListens?: number } = {}) {
  const handlers = new Map<string, Handler>();
  let failing = options.failingListens ?? 0;
  let up = true;
  const deliver = (payload: string) => {
    for (const handler of handlers.values()) handler(payload);
  };
  return {
    listen: async (channel: string, handler: Handler) => {
      if (failing > 0) {
        failing -= 1;
        throw new Error('Connection terminated');
      }
      handlers.set(channel, handler);
      return () => void handlers.delete(channel);
    },
    listening: () => up,
    subscribed: () => handlers.size,
    notify: (channel: string, payload: string) => handlers.get(channel)?.(payload),
    drop() {
      up = false;
      deliver(anyChange);
    },
    back() {
      up = true;
      deliver(anyChange);
    },
  };
}

const request = (token: string) =>
  ({ headers: { cookie: `theme=dark; better-auth.session_token=${token}` } }) as unknown as FastifyRequest;

const member = (id: string) => ({ id }) as typeof users.$inferSelect;

const inADay = () => new Date(Date.now() + 86_400_000);

function session(userId: string, id = `session-${userId}`) {
  return { id, createdAt: new Date(), expiresAt: inADay(), user: member(userId) };
}

async function subscribedCache(database = fakeDatabase(), now?: () => number) {
  const cache = createSessionCache({ database, now });
  await expect.poll(database.subscribed).toBe(sessionDroppingChannels.length);
  return { cache, database };
}

describe('the verified-session cache follows its LISTEN', () => {
  it('serves a remembered session while every channel listens, and drops only the account a channel names', async () => {
    const { cache, database } = await subscribedCache();
    cache.remember(request('ana'), cache.ticket(), session('ana'), inADay());
    cache.remember(request('beto'), cache.ticket(), session('beto'), inADay());
    expect(cache.lookup(request('ana'))?.id).toBe('session-ana');
    database.notify('viewing_tokens', 'ana');
    expect(cache.lookup(request('ana'))).toBeUndefined();
    expect(cache.lookup(request('beto'))?.id).toBe('session-beto');
    database.notify('access_changed', 'beto');
    expect(cache.lookup(request('beto'))).toBeUndefined();
  });

  it('while the LISTEN is down it serves nothing, remembers nothing, and stays empty until the listener is back', async () => {
    const { cache, database } = await subscribedCache();
    cache.remember(request('ana'), cache.ticket(), session('ana'), inADay());
    database.drop();
    expect(cache.lookup(request('ana'))).toBeUndefined();
    // a lookup that succeeds through the pool while the listener is still away is not remembered
    cache.remember(request('ana'), cache.ticket(), session('ana'), inADay());
    expect(cache.lookup(request('ana'))).toBeUndefined();
    database.back();
    expect(cache.lookup(request('ana'))).toBeUndefined();
    cache.remember(request('ana'), cache.ticket(), session('ana'), inADay());
    expect(cache.lookup(request('ana'))?.id).toBe('session-ana');
  });

  it('drops what it holds as soon as `listening()` is false, even before the drop is announced', async () => {
    let up = true;
    const database = { ...fakeDatabase(), listening: () => up };
    const { cache } = await subscribedCache(database);
    cache.remember(request('ana'), cache.ticket(), session('ana'), inADay());
    up = false;
    expect(cache.lookup(request('ana'))).toBeUndefined();
    up = true;
    expect(cache.lookup(request('ana'))).toBeUndefined();
  });

  it('does not remember a lookup that began before a gap or a change of the account and ended after it', async () => {
    const { cache, database } = await subscribedCache();
    const beforeGap = cache.ticket();
    database.drop();
    database.back();
    cache.remember(request('ana'), beforeGap, session('ana'), inADay());
    expect(cache.lookup(request('ana'))).toBeUndefined();
    const beforeChange = cache.ticket();
    database.notify('account_changed', 'ana');
    cache.remember(request('ana'), beforeChange, session('ana'), inADay());
    expect(cache.lookup(request('ana'))).toBeUndefined();
    const beforeEveryone = cache.ticket();
    database.notify('access_changed', '*');
    cache.remember(request('ana'), beforeEveryone, session('ana'), inADay());
    expect(cache.lookup(request('ana'))).toBeUndefined();
  });

  // on a busy evening every sign-in and viewing token of a class announces a change: were any change to spoil every
  // lookup under way, no session would be remembered while the class arrives (decision 055)
  it("remembers a lookup that overlapped only other accounts' changes", async () => {
    const { cache, database } = await subscribedCache();
    const ana = cache.ticket();
    const beto = cache.ticket();
    database.notify('viewing_tokens', 'carla');
    database.notify('account_changed', 'beto');
    cache.remember(request('ana'), ana, session('ana'), inADay());
    cache.remember(request('beto'), beto, session('beto'), inADay());
    expect(cache.lookup(request('ana'))?.id).toBe('session-ana');
    expect(cache.lookup(request('beto'))).toBeUndefined();
    cache.remember(request('beto'), cache.ticket(), session('beto'), inADay());
    expect(cache.lookup(request('beto'))?.id).toBe('session-beto');
  });

  it('remembers no lookup under way once more accounts changed than it keeps track of', async () => {
    const { cache, database } = await subscribedCache();
    const ticket = cache.ticket();
    for (let n = 0; n <= 10_000; n++) database.notify('account_changed', `member-${n}`);
    cache.remember(request('ana'), ticket, session('ana'), inADay());
    expect(cache.lookup(request('ana'))).toBeUndefined();
    cache.remember(request('ana'), cache.ticket(), session('ana'), inADay());
    expect(cache.lookup(request('ana'))?.id).toBe('session-ana');
  });

  it('keeps track of at most 10,000 changed accounts, however many change', async () => {
    const { cache, database } = await subscribedCache();
    let most = 0;
    for (let n = 0; n < 35_000; n++) {
      database.notify(n % 2 ? 'account_changed' : 'viewing_tokens', `member-${n}`);
      most = Math.max(most, cache.sizes().changesNoted);
    }
    expect(most).toBe(10_000);
    expect(cache.sizes().changesNoted).toBeLessThanOrEqual(10_000);
    // a lookup that began after the last change is remembered as usual
    cache.remember(request('ana'), cache.ticket(), session('ana'), inADay());
    expect(cache.sizes()).toMatchObject({ sessions: 1, accounts: 1 });
  });

  it('keeps the cache off until every channel listens, trying a failed LISTEN again', async () => {
    const database = fakeDatabase({ failingListens: 1 });
    const cache = createSessionCache({ database });
    await new Promise((resolve) => setImmediate(resolve));
    expect(database.subscribed()).toBe(sessionDroppingChannels.length - 1);
    cache.remember(request('ana'), cache.ticket(), session('ana'), inADay());
    expect(cache.lookup(request('ana'))).toBeUndefined();
    await expect.poll(database.subscribed, { timeout: 5_000 }).toBe(sessionDroppingChannels.length);
    cache.remember(request('ana'), cache.ticket(), session('ana'), inADay());
    expect(cache.lookup(request('ana'))?.id).toBe('session-ana');
  });

  it('remembers nothing without a database to listen on', () => {
    const cache = createSessionCache({});
    cache.remember(request('ana'), cache.ticket(), session('ana'), inADay());
    expect(cache.lookup(request('ana'))).toBeUndefined();
  });
});

describe('how long a revoked session can be served when its notification is lost', () => {
  it(`is ${verifiedSessionMs / 1000} s at most after it was verified`, async () => {
    let now = 1_000_000;
    const { cache } = await subscribedCache(fakeDatabase(), () => now);
    cache.remember(request('ana'), cache.ticket(), session('ana'), inADay());
    // revoked with the connection up and its NOTIFY never seen: the time to live is the only bound
    now += verifiedSessionMs - 1;
    expect(cache.lookup(request('ana'))?.id).toBe('session-ana');
    now += 2;
    expect(cache.lookup(request('ana'))).toBeUndefined();
  });

  it("never past the session's own expiry or its absolute end", async () => {
    const { cache } = await subscribedCache();
    const ending = { ...session('ana'), expiresAt: new Date(Date.now() - 1) };
    cache.remember(request('ana'), cache.ticket(), ending, inADay());
    expect(cache.lookup(request('ana'))).toBeUndefined();
    cache.remember(request('beto'), cache.ticket(), session('beto'), new Date(Date.now() - 1));
    expect(cache.lookup(request('beto'))).toBeUndefined();
  });
});

describe('what an answer keeps with the session', () => {
  it('is dropped with the session and not kept from a load that overlapped a change', async () => {
    const { cache, database } = await subscribedCache();
    cache.remember(request('ana'), cache.ticket(), session('ana'), inADay());
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.kept(request('ana'), 'profile', load)).toBe(1);
    expect(await cache.kept(request('ana'), 'profile', load)).toBe(1);
    // another account's change while it loads: kept all the same
    const besideOther = cache.kept(request('ana'), 'other', async () => {
      database.notify('account_changed', 'beto');
      return 'kept';
    });
    expect(await besideOther).toBe('kept');
    expect(await cache.kept(request('ana'), 'other', async () => 'loaded again')).toBe('kept');
    // a change of the flags' own account while they load: not kept
    cache.forgetKept('ana', 'other');
    const overlapping = cache.kept(request('ana'), 'other', async () => {
      cache.forgetKept('ana', 'other');
      return 'old';
    });
    expect(await overlapping).toBe('old');
    expect(await cache.kept(request('ana'), 'other', async () => 'new')).toBe('new');
    database.notify('account_changed', 'ana');
    expect(await cache.kept(request('ana'), 'profile', load)).toBe(2);
  });
});
