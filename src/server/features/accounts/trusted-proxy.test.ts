import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ trustProxy: 1, signInLimits: { perAccountAndIp: 10, perAccount: 30, perIp: 11 } });
});
afterAll(async () => t.close());

describe('behind one trusted proxy', () => {
  it('keys the per-IP sign-in ceiling on the client address the proxy reports', async () => {
    const attempt = (clientIp: string, index: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/account/login',
        remoteAddress: '10.0.0.2',
        headers: { origin: testPublicUrl, 'x-forwarded-for': clientIp },
        payload: { email: `p-${index}@example.com`, password: 'x' },
      });
    const statuses: number[] = [];
    for (let index = 0; index < 12; index++) statuses.push((await attempt('198.51.100.7', index)).statusCode);
    expect(statuses.at(-1)).toBe(429);
    // another client behind the same proxy is not blocked by the first one's attempts
    expect((await attempt('198.51.100.8', 99)).statusCode).toBe(404);
  });
});
