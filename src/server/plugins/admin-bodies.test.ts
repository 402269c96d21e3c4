import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const sampleId = '00000000-0000-4000-8000-000000000000';

describe('every Admin write', () => {
  it('answers 400 with a Spanish message for a malformed body (null, an array, a string, a number), never a 500', async () => {
    const admin = await signedInAs(t, { type: 'Admin' });
    const writes = t.app.routeTable.filter(
      (route) => route.url.startsWith('/api/admin') && ['POST', 'PUT', 'PATCH'].includes(route.method),
    );
    expect(writes.length).toBeGreaterThan(10);
    for (const route of writes) {
      const url = route.url.replace(/:[A-Za-z]+/g, sampleId).replace('*', 'x');
      for (const body of ['null', '[]', '"texto"', '42', '[null]']) {
        const response = await t.app.inject({
          method: route.method as 'POST',
          url,
          headers: { origin: testPublicUrl, cookie: admin.cookie, 'content-type': 'application/json' },
          payload: body,
        });
        expect(response.statusCode, `${route.method} ${route.url} with ${body}`).toBe(400);
        expect(response.json().message, `${route.method} ${route.url} with ${body}`).toMatch(/[a-zá-ú]/i);
      }
    }
  });
});
