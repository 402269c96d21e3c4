import fs from 'node:fs';
import path from 'node:path';
import { test as base, expect, request, type Page } from '@playwright/test';
import { storageKeys } from '../src/web/lib/storage-keys.ts';

export const demoPassword = 'Demo1234';

export const demoAccounts = {
  gratis: 'basico@demo.cxvet.com',
  premium: 'premium@demo.cxvet.com',
  legacy: 'legacy@demo.cxvet.com',
  admin: 'admin@demo.cxvet.com',
  classroomAdmin: 'aula@demo.cxvet.com',
} as const;

export type DemoRole = keyof typeof demoAccounts;

export const demoRoles = Object.keys(demoAccounts) as DemoRole[];

/** Where auth.setup.ts keeps each role's session, so the suite signs in once per role. */
export const authFile = (role: DemoRole) => path.join('test-results', '.auth', `${role}.json`);

/** Signs a demo account in through the API and saves its session cookies. */
export async function saveSession(baseURL: string, role: DemoRole): Promise<void> {
  const origin = new URL(baseURL).origin;
  const context = await request.newContext({ baseURL, extraHTTPHeaders: { origin } });
  try {
    const response = await context.post('/api/account/login', {
      data: { email: demoAccounts[role], password: demoPassword },
    });
    expect(response.status(), `login as ${role}: ${await response.text()}`).toBe(200);
    // the demo aula expiring in two days would open its warning modal on whichever spec comes first: show it here instead
    expect((await context.post('/api/classrooms/expiry-warnings')).status()).toBe(200);
    fs.mkdirSync(path.dirname(authFile(role)), { recursive: true });
    await context.storageState({ path: authFile(role) });
  } finally {
    await context.dispose();
  }
}

/** Gives the page's browser context the logged-in session of a demo account. */
export async function loginAs(page: Page, role: DemoRole): Promise<void> {
  if (!fs.existsSync(authFile(role))) await saveSession(test.info().project.use.baseURL ?? '', role);
  const state = JSON.parse(fs.readFileSync(authFile(role), 'utf8')) as {
    cookies: Parameters<ReturnType<Page['context']>['addCookies']>[0];
  };
  await page.context().addCookies(state.cookies);
}

/**
 * Signs a new account up through the API in the page's own context, which is signed in as it afterwards: a member of
 * the test's own, whose state no other test (nor an earlier try of the same one) has touched.
 */
export async function signUpByApi(
  page: Page,
  account: { email: string; name: string; password: string; plan?: 'basic' | 'monthly'; mailings?: boolean },
  /** The server the page's context talks to, when a spec starts its own (`serverInstances`). */
  baseURL = test.info().project.use.baseURL!,
): Promise<void> {
  const origin = new URL(baseURL).origin;
  const response = await page.request.post('/api/account/signup', {
    headers: { origin },
    data: {
      plan: account.plan ?? 'basic',
      name: account.name,
      email: account.email,
      confirmEmail: account.email,
      phoneNumber: '+525512345678',
      confirmPhoneNumber: '+525512345678',
      password: account.password,
      confirmPassword: account.password,
      country: 'México',
      city: 'Puebla',
      homeUniversity: '',
      organizationId: null,
      promoMail: account.mailings ?? false,
      newsMail: account.mailings ?? false,
      terms: true,
    },
  });
  expect(response.status(), await response.text()).toBe(200);
}

type Options = { acceptCookies: boolean };

/** The test function with the cookie notice already accepted unless a spec opts out. */
export const test = base.extend<Options>({
  acceptCookies: [true, { option: true }],
  page: async ({ page, acceptCookies }, use) => {
    if (acceptCookies) {
      await page.addInitScript((key) => window.localStorage.setItem(key, 'true'), storageKeys.cookiesAccepted);
    }
    await use(page);
  },
});

export { expect };

/** Saves a full-page screenshot as a test artifact. */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  const file = test.info().outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true, animations: 'disabled' });
  await test.info().attach(name, { path: file, contentType: 'image/png' });
}

/** Presses the poster's play button: the procedure page loads its player (and any media) only then. */
export async function pressPlay(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Reproducir', exact: true }).first().click();
  await expect(page.getByRole('region', { name: /^Reproductor de video/ })).toBeVisible();
}
