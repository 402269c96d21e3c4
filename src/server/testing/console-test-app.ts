import { afterAll, beforeAll } from 'vitest';
import { createTestApp, testPublicUrl, type TestApp } from './test-app.ts';
import { signedInAs } from './factories.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One test app per file with one account signed in (an Admin unless told), for the console's API tests:
 * state.t and state.admin are set before the tests run, and call() sends as that account.
 */
export function useConsoleTestApp(account: Parameters<typeof signedInAs>[1] = { type: 'Admin' }) {
  const state = {} as { t: TestApp; admin: Awaited<ReturnType<typeof signedInAs>> };
  beforeAll(async () => {
    state.t = await createTestApp();
    state.admin = await signedInAs(state.t, account);
  });
  afterAll(async () => state.t.close());
  /** Sends as the signed-in account; another cookie, or null for a guest. */
  const call = (method: Method, url: string, payload?: unknown, cookie: string | null = state.admin.cookie) =>
    state.t.app.inject({
      method,
      url,
      headers: { origin: testPublicUrl, ...(cookie ? { cookie } : {}) },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return { state, call };
}
