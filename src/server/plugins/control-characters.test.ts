import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { randomTestIp, signedInAs } from '#server/testing/factories.ts';
import { errorMessages } from '#shared/error-messages.ts';
import { findNulByte, jsonNestsDeeper, maxJsonDepth } from './control-characters.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const sampleId = '00000000-0000-4000-8000-000000000000';
const nul = '\u0000';

describe('a NUL byte in a request', () => {
  it('gets a 400 with a Spanish message on every route with a body or query, as a guest and as an Admin; never a 500', async () => {
    const admin = await signedInAs(t, { type: 'Admin' });
    const routes = t.app.routeTable.filter(
      (route) => route.method !== 'HEAD' && route.method !== 'OPTIONS' && !route.url.includes('/webhooks/'),
    );
    expect(routes.length).toBeGreaterThan(60);
    for (const route of routes) {
      const url = route.url.replace(/:[A-Za-z]+/g, sampleId).replace('*', 'x');
      const withBody = route.method !== 'GET' && route.method !== 'DELETE';
      for (const cookie of [undefined, admin.cookie]) {
        const who = `${route.method} ${route.url} as ${cookie ? 'an Admin' : 'a guest'}`;
        const headers = { origin: testPublicUrl, ...(cookie ? { cookie } : {}) };
        const inQuery = await t.app.inject({
          method: route.method as 'GET',
          url: `${url}?q=a%00b&token=%00`,
          remoteAddress: randomTestIp(),
          headers,
        });
        expect(inQuery.statusCode, `${who}, NUL in the query`).not.toBe(500);
        if (!(cookie === undefined && inQuery.statusCode === 401)) {
          expect(inQuery.statusCode, `${who}, NUL in the query`).toBe(400);
          expect(inQuery.json().fields?.q, who).toBe('El texto contiene caracteres no permitidos.');
        }
        if (!withBody) continue;
        const inBody = await t.app.inject({
          method: route.method as 'POST',
          url,
          remoteAddress: randomTestIp(),
          headers: { ...headers, 'content-type': 'application/json' },
          payload: JSON.stringify({ name: `a${nul}b`, email: `x${nul}@example.com`, items: [{ title: nul }] }),
        });
        expect(inBody.statusCode, `${who}, NUL in the body`).not.toBe(500);
        if (!(cookie === undefined && inBody.statusCode === 401))
          expect(inBody.statusCode, `${who}, NUL in the body`).toBe(400);
      }
    }
  });

  it('is refused in an otherwise valid sign-up, contact message, sign-in and catalogue search', async () => {
    const signUp = await t.app.inject({
      method: 'POST',
      url: '/api/account/signup',
      remoteAddress: randomTestIp(),
      headers: { origin: testPublicUrl },
      payload: {
        plan: 'basic',
        name: `Ana${nul}`,
        email: 'nul@example.com',
        confirmEmail: 'nul@example.com',
        phoneNumber: '+525512345678',
        confirmPhoneNumber: '+525512345678',
        password: 'Secreta1',
        confirmPassword: 'Secreta1',
        country: 'México',
        city: 'Puebla',
        homeUniversity: '',
        organizationId: null,
        promoMail: false,
        newsMail: false,
        terms: true,
      },
    });
    expect(signUp.statusCode).toBe(400);
    expect(signUp.json()).toMatchObject({
      code: 'VALIDATION',
      fields: { name: 'El texto contiene caracteres no permitidos.' },
    });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/account/login',
      remoteAddress: randomTestIp(),
      headers: { origin: testPublicUrl },
      payload: { email: `a${nul}@example.com`, password: 'x' },
    });
    expect(login.statusCode).toBe(400);
    const search = await t.app.inject({ url: '/api/catalog/procedures?q=%00' });
    expect(search.statusCode).toBe(400);
    const detail = await t.app.inject({ url: '/api/catalog/procedures/%00' });
    expect(detail.statusCode).toBe(400);
  });
});

describe('findNulByte', () => {
  it('names the first field holding a NUL byte, in values and keys, and nothing for clean input', () => {
    expect(findNulByte({ a: 'ok', b: [{ c: `x${nul}` }] })).toBe('b.0.c');
    expect(findNulByte({ [`k${nul}`]: 1 })).toBe('_');
    expect(findNulByte({ a: 'ok', n: 1, z: null, list: ['a', 'b'] })).toBeNull();
    expect(findNulByte(undefined)).toBeNull();
  });
});

describe('deeply nested JSON', () => {
  const deep = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

  it('gets a quick 400 with a Spanish message at 9,000 levels on sign-in, as arrays or objects, and the server stays responsive', async () => {
    const bodies = [deep(9000), '{"a":'.repeat(9000) + '1' + '}'.repeat(9000), `{"email":${deep(65)}}`];
    for (const payload of bodies) {
      const started = Date.now();
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/account/login',
        remoteAddress: randomTestIp(),
        headers: { origin: testPublicUrl, 'content-type': 'application/json' },
        payload,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'NESTING_TOO_DEEP',
        message: errorMessages.NESTING_TOO_DEEP.message,
      });
      expect(Date.now() - started).toBeLessThan(1000);
    }
    const many = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/account/login',
          remoteAddress: randomTestIp(),
          headers: { origin: testPublicUrl, 'content-type': 'application/json' },
          payload: deep(9000),
        }),
      ),
    );
    expect(many.map((response) => response.statusCode)).toEqual(many.map(() => 400));
    expect((await t.app.inject({ url: '/api/health' })).statusCode).toBe(200);
  });

  it('still parses nesting up to the limit, and the bodies other parsers read are held to it too', async () => {
    const shallow = await t.app.inject({
      method: 'POST',
      url: '/api/account/login',
      remoteAddress: randomTestIp(),
      headers: { origin: testPublicUrl, 'content-type': 'application/json' },
      payload: `{"email":${deep(maxJsonDepth - 1)},"password":"x"}`,
    });
    expect(shallow.statusCode).toBe(400);
    expect(shallow.json().code).toBe('VALIDATION');
    // the webhooks parse their raw bytes themselves
    const webhook = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/simulado',
      headers: { 'content-type': 'application/json' },
      payload: deep(9000),
    });
    expect(webhook.statusCode).toBe(400);
    expect(webhook.json().code).toBe('NESTING_TOO_DEEP');
  });
});

describe('jsonNestsDeeper and the walk', () => {
  it('count brackets outside strings only, and refuse past the limit', () => {
    expect(jsonNestsDeeper('[[1]]', 2)).toBe(false);
    expect(jsonNestsDeeper('[[[1]]]', 2)).toBe(true);
    expect(jsonNestsDeeper('{"a":{"b":{}}}', 2)).toBe(true);
    expect(jsonNestsDeeper('["[[[[", "\\"[[[", "\\\\"]', 1)).toBe(false);
    expect(jsonNestsDeeper('[' + '"x",'.repeat(100_000) + '1]')).toBe(false);
    let nested: unknown = 'a';
    for (let level = 0; level < maxJsonDepth; level += 1) nested = [nested];
    expect(findNulByte(nested)).toBeNull();
    expect(() => findNulByte([nested])).toThrow('NESTING_TOO_DEEP');
    let veryDeep: unknown = 'a';
    for (let level = 0; level < 100_000; level += 1) veryDeep = { a: veryDeep };
    expect(() => findNulByte(veryDeep)).toThrow('NESTING_TOO_DEEP');
  });
});
