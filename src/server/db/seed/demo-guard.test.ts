import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '#server/db/schema/index.ts';
import { createTestApp, type TestApp } from '#server/testing/test-app.ts';
import { assertNoDemoPasswords } from './demo-guard.ts';
import { demoPassword } from './demo-accounts.ts';

describe('a production start with demo accounts', () => {
  let t: TestApp;
  beforeEach(async () => {
    t = await createTestApp();
  });
  afterEach(async () => {
    await t.close();
  });

  it('is refused while a demo account signs in with the published password, naming the accounts and what to do', async () => {
    for (const email of ['admin@demo.cxvet.com', 'premium@demo.cxvet.com']) {
      await t.app.services.accounts.createAccount({ name: 'Demo', email, password: demoPassword, values: {} });
    }
    await expect(assertNoDemoPasswords(t.app.services.accounts)).rejects.toThrow(
      /admin@demo\.cxvet\.com, premium@demo\.cxvet\.com\. Inicia una vez sin NODE_ENV=production.*cambia su contraseña/,
    );
  });

  it('goes ahead once their passwords changed, and ignores deleted demo accounts and other accounts with that password', async () => {
    await t.app.services.accounts.createAccount({
      name: 'Demo',
      email: 'admin@demo.cxvet.com',
      password: 'OtraClave987',
      values: {},
    });
    const gone = await t.app.services.accounts.createAccount({
      name: 'Demo',
      email: 'basico@demo.cxvet.com',
      password: demoPassword,
      values: {},
    });
    await t.db.update(users).set({ anonymizedAt: new Date() }).where(eq(users.id, gone.id));
    await t.app.services.accounts.createAccount({
      name: 'Otra',
      email: 'otra@example.com',
      password: demoPassword,
      values: {},
    });
    await expect(assertNoDemoPasswords(t.app.services.accounts)).resolves.toBeUndefined();
  });
});
