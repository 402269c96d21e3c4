import { test as setup } from '@playwright/test';
import { demoRoles, saveSession } from './fixtures.ts';

// The server allows 10 sign-ins a minute per IP, so the suite signs each demo account in once.
setup('sign in every demo account once', async ({ baseURL }) => {
  for (const role of demoRoles) await saveSession(baseURL ?? '', role);
});
