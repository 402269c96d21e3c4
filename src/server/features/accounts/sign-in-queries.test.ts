import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createUser, randomTestIp, testPassword } from '#server/testing/factories.ts';
import { loginFailures, rateCounters, sessions } from '#server/db/schema/index.ts';

// A sign-in's statements, counted through Drizzle's logger: a class of 300 signing in at once queues them on the
// pool (PostgreSQL) or the one connection (PGlite), beside the password check (issue #39, decision 053).
const queries: string[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, undefined, { onQuery: (query) => queries.push(query) });
});
afterAll(async () => t.close());

const login = (email: string, password: string, remoteAddress: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/account/login',
    remoteAddress,
    headers: { origin: testPublicUrl },
    payload: { email, password },
  });

describe('the statements of one sign-in', () => {
  it('a correct sign-in asks seven: the limits, the account with its flags, the guess, the user, credential and session better-auth reads and writes, the clean-up', async () => {
    const user = await createUser(t);
    const ip = randomTestIp();
    queries.length = 0;
    const answer = await login(user.email, testPassword, ip);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(queries, queries.join('\n')).toHaveLength(7);
    // and what they were for still happened: a session, the guess cleared, the address's count given back
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(1);
    expect(await t.db.select().from(loginFailures).where(eq(loginFailures.email, user.email))).toEqual([]);
    const [address] = await t.db
      .select()
      .from(rateCounters)
      .where(eq(rateCounters.key, `sign-in:ip:${ip}`));
    expect(address?.hits).toBe(0);
  });

  it('a wrong password asks five and leaves its counts: the address, the account and the guess', async () => {
    const user = await createUser(t);
    const ip = randomTestIp();
    queries.length = 0;
    expect((await login(user.email, 'otra-clave-1', ip)).statusCode).toBe(401);
    expect(queries, queries.join('\n')).toHaveLength(5);
    const [address] = await t.db
      .select()
      .from(rateCounters)
      .where(eq(rateCounters.key, `sign-in:ip:${ip}`));
    expect(address?.hits).toBe(1);
    const [failures] = await t.db.select().from(loginFailures).where(eq(loginFailures.email, user.email));
    expect(failures?.failures).toBe(1);
  });
});
