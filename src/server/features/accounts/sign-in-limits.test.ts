import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createUser, randomTestIp, testPassword } from '#server/testing/factories.ts';
import { sessions } from '#server/db/schema/index.ts';

let t: TestApp;
beforeAll(async () => {
  // the per-IP ceiling is lowered so the test can reach it; a campus class stays far below it
  t = await createTestApp({ signInLimits: { perAccountAndIp: 10, perAccount: 30, perIp: 60 } });
});
afterAll(async () => t.close());

const login = (payload: object, remoteAddress = randomTestIp()) =>
  t.app.inject({
    method: 'POST',
    url: '/api/account/login',
    remoteAddress,
    headers: { origin: testPublicUrl },
    payload,
  });

describe('the per-account lockout under parallel guesses', () => {
  it(
    'evaluates at most five of sixty simultaneous guesses from sixty addresses; the right password at #46 does not sign in',
    { timeout: 120_000 },
    async () => {
      const user = await createUser(t, { email: 'paralelo@example.com' });
      const guesses = Array.from({ length: 60 }, (_, index) => (index === 45 ? testPassword : `mala-${index}`));
      const responses = await Promise.all(
        guesses.map((password, index) => login({ email: user.email, password }, `10.60.${index}.1`)),
      );
      const statuses = responses.map((response) => response.statusCode);
      expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(5);
      expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(55);
      expect(statuses[45]).toBe(429);
      expect(statuses).not.toContain(200);
      expect(await t.db.select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
      // and the lock holds for the right password afterwards
      expect((await login({ email: user.email, password: testPassword })).statusCode).toBe(429);
    },
  );

  it('lets the owner in after four wrong guesses and starts counting again', async () => {
    const user = await createUser(t, { email: 'cuatro@example.com' });
    for (let attempt = 0; attempt < 4; attempt++)
      expect((await login({ email: user.email, password: `x-${attempt}` })).statusCode).toBe(401);
    expect((await login({ email: user.email, password: testPassword })).statusCode).toBe(200);
    for (let attempt = 0; attempt < 5; attempt++)
      expect((await login({ email: user.email, password: `y-${attempt}` })).statusCode).toBe(401);
    expect((await login({ email: user.email, password: testPassword })).statusCode).toBe(429);
  });
});

describe('sign-in limits for a campus behind one NAT', () => {
  // forty password hashes and checks: slow on a busy machine
  it('lets a class of forty sign in to their own accounts from one address at once', { timeout: 180_000 }, async () => {
    const students = await Promise.all(
      Array.from({ length: 40 }, (_, index) => createUser(t, { email: `alumno-${index}@campus.example` })),
    );
    const responses = await Promise.all(
      students.map((student) => login({ email: student.email, password: testPassword }, '10.99.0.1')),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(students.map(() => 200));
  });

  it('limits one account from one address to SIGN_IN_LIMIT_PER_MINUTE attempts a minute', async () => {
    const user = await createUser(t, { email: 'par@example.com' });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 11; attempt++) {
      statuses.push((await login({ email: user.email, password: testPassword }, '10.98.0.1')).statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(statuses[10]).toBe(429);
    // the same account from another address is still welcome
    expect((await login({ email: user.email, password: testPassword }, '10.98.0.2')).statusCode).toBe(200);
  });

  it('limits one account from every address together', { timeout: 120_000 }, async () => {
    const user = await createUser(t, { email: 'cuenta@example.com' });
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 31; attempt++)
      statuses.push((await login({ email: user.email, password: testPassword })).statusCode);
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(200));
    expect(statuses[30]).toBe(429);
  });

  it('stops one address at the per-IP ceiling across accounts, even when the attempts arrive together', async () => {
    const responses = await Promise.all(
      Array.from({ length: 70 }, (_, index) =>
        login({ email: `nadie-${index}@example.com`, password: 'x' }, '10.97.0.1'),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 404)).toHaveLength(60);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
  });
});

describe('the per-IP ceiling counts failed sign-ins only', () => {
  it(
    'lets 300 students sign in correctly from one address, five times its ceiling, and still refuses its failures past it',
    { timeout: 600_000 },
    async () => {
      const nat = '10.96.0.1';
      const students: { email: string }[] = [];
      for (let batch = 0; batch < 10; batch++)
        students.push(
          ...(await Promise.all(
            Array.from({ length: 30 }, (_, index) =>
              createUser(t, { email: `clase-${batch * 30 + index}@nat.example` }),
            ),
          )),
        );
      // a class signs in over a minute, a few at a time: twenty in flight at most
      const statuses: number[] = [];
      for (let from = 0; from < students.length; from += 20) {
        const responses = await Promise.all(
          students
            .slice(from, from + 20)
            .map((student) => login({ email: student.email, password: testPassword }, nat)),
        );
        statuses.push(...responses.map((response) => response.statusCode));
      }
      expect(statuses).toEqual(students.map(() => 200));

      // the per-account lockout still holds from that address: five wrong guesses, then even the right one waits
      const guessed = students[0]!.email;
      for (let attempt = 0; attempt < 5; attempt++)
        expect((await login({ email: guessed, password: `mal-${attempt}` }, nat)).statusCode).toBe(401);
      expect((await login({ email: guessed, password: testPassword }, nat)).statusCode).toBe(429);

      // 60 failures a minute from the address: 6 counted above, 54 more, and the next attempt is refused
      for (let attempt = 0; attempt < 54; attempt++)
        expect((await login({ email: `nadie-nat-${attempt}@example.com`, password: 'x' }, nat)).statusCode).toBe(404);
      expect((await login({ email: 'nadie-nat-final@example.com', password: 'x' }, nat)).statusCode).toBe(429);
      // once the address has used its failures, a correct sign-in from it waits too; another address does not
      expect((await login({ email: students[1]!.email, password: testPassword }, nat)).statusCode).toBe(429);
      expect((await login({ email: students[1]!.email, password: testPassword })).statusCode).toBe(200);
    },
  );
});
