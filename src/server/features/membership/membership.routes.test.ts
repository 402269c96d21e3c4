import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createUser, signedInAs } from '#server/testing/factories.ts';
import { failMailWrites } from '#server/testing/failing-mail-store.ts';
import { jobs, mailOutbox, paymentSubscriptions, users } from '#server/db/schema/index.ts';
import { nextPaymentDate } from '#shared/membership/membership.rules.ts';
import { pressCheckout, settle, simulator, subscribeAndApprove } from '#server/features/payments/payments.testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const day = 86_400_000;
const userRow = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0]!;
const post = (url: string, cookie?: string) =>
  t.app.inject({ method: 'POST', url, headers: { origin: testPublicUrl, ...(cookie ? { cookie } : {}) } });
const me = async (cookie: string) => (await t.app.inject({ url: '/api/me', headers: { cookie } })).json().user;

/** A promise the test resolves when it chooses (Node 20 has no Promise.withResolvers). */
function signal() {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

const downgradeMails = async (email: string) =>
  (await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, email))).filter(
    (mail) => mail.subject === 'Tu membresía CxVet cambiará a Básica',
  ).length;

/** A Premium member whose subscription lives at the simulated provider. */
async function providerPremium() {
  const session = await signedInAs(t, { type: 'Gratis' });
  const subscriptionId = await subscribeAndApprove(t, session.cookie);
  return { ...session, subscriptionId };
}

describe('POST /api/membership/downgrade', () => {
  it('makes a Premium member Gratis + POR_TERMINAR, keeps Premium access until the next payment date and stops billing', async () => {
    const { cookie, user, subscriptionId } = await providerPremium();
    const paid = await userRow(user.id);
    const response = await post('/api/membership/downgrade', cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json().membership).toMatchObject({
      type: 'Gratis',
      paymentStatus: 'POR_TERMINAR',
      hasPremiumAccess: true,
      canReactivate: true,
      canDowngrade: false,
    });
    await simulator(t).settled();
    const row = await userRow(user.id);
    expect(row).toMatchObject({ type: 'Gratis', paymentStatus: 'POR_TERMINAR', subscriptionId });
    expect(row.terminationDate!.toISOString()).toBe(nextPaymentDate(paid.paymentDay!, false).toISOString());
    expect((await t.app.services.paymentProvider.getSubscription(subscriptionId))!.status).toBe('SUSPENDED');
    expect((await me(cookie)).hasPremiumAccess).toBe(true);
    const subjects = (await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email))).map(
      (mail) => mail.subject,
    );
    await settle(t);
    // the suspension's own webhook, applied after the downgrade, sends no second e-mail
    expect(await downgradeMails(user.email)).toBe(1);
    expect(subjects).toContain('Tu membresía CxVet cambiará a Básica');
  });

  it("sends the downgrade's e-mail once when the suspension's webhook was applied before the downgrade's own write", async () => {
    const { cookie, user, subscriptionId } = await providerPremium();
    const provider = simulator(t);
    const realSuspend = provider.suspendSubscription.bind(provider);
    // the provider suspends, and its webhook's reconcile runs before the suspend's answer reaches the downgrade
    const raced = vi.spyOn(provider, 'suspendSubscription').mockImplementationOnce(async (id, reason) => {
      await realSuspend(id, reason);
      await t.app.services.payments.reconcileSubscription(id);
    });
    const response = await post('/api/membership/downgrade', cookie);
    raced.mockRestore();
    expect(response.statusCode).toBe(200);
    expect(response.json().membership).toMatchObject({ type: 'Gratis', paymentStatus: 'POR_TERMINAR' });
    await settle(t);
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'POR_TERMINAR', subscriptionId });
    expect(await downgradeMails(user.email)).toBe(1);
  });

  it('changes nothing when its e-mail cannot be written, and changes the account with its e-mail once it can (decision 067)', async () => {
    // demo data: no provider is called, only our own writes are under test
    const { cookie, user } = await signedInAs(t, {
      type: 'Premium',
      subscriptionId: 'DEMO-SUB',
      paymentDay: new Date(),
    });
    const restore = await failMailWrites(t.db);
    try {
      expect((await post('/api/membership/downgrade', cookie)).statusCode).toBe(500);
    } finally {
      await restore();
    }
    // before, the account was Gratis/POR_TERMINAR and the member was never told
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN' });
    expect(await downgradeMails(user.email)).toBe(0);

    expect((await post('/api/membership/downgrade', cookie)).statusCode).toBe(200);
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'POR_TERMINAR' });
    expect(await downgradeMails(user.email)).toBe(1);
  });

  it('answers SUBSCRIPTION_UNMAPPED_ERROR and changes nothing when the provider cannot suspend', async () => {
    const { cookie, user } = await signedInAs(t, {
      type: 'Premium',
      subscriptionId: 'I-DESCONOCIDA',
      paymentDay: new Date(),
    });
    await t.db.insert(paymentSubscriptions).values({
      userId: user.id,
      provider: 'simulado',
      providerSubscriptionId: 'I-DESCONOCIDA',
      plan: 'monthly',
      state: 'ACTIVA',
    });
    const response = await post('/api/membership/downgrade', cookie);
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({
      code: 'SUBSCRIPTION_UNMAPPED_ERROR',
      message:
        'Por el momento no es posible suspender tu suscripción, por favor espera unos minutos e intenta de nuevo',
    });
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN' });
  });

  it('downgrades a Premium whose subscription the provider never knew (demo data) without calling it', async () => {
    const paymentDay = new Date(Date.now() - 10 * day);
    const { cookie, user } = await signedInAs(t, { type: 'Premium', subscriptionId: 'DEMO-SUB', paymentDay });
    expect((await post('/api/membership/downgrade', cookie)).statusCode).toBe(200);
    expect((await userRow(user.id)).terminationDate!.getTime()).toBe(paymentDay.getTime() + 30 * day);
  });

  it.each([['Gratis'], ['Legacy'], ['Admin']] as const)('is refused to a %s member', async (type) => {
    const { cookie } = await signedInAs(t, { type });
    expect((await post('/api/membership/downgrade', cookie)).statusCode).toBe(409);
  });

  it('is refused to a guest', async () => {
    expect((await post('/api/membership/downgrade')).statusCode).toBe(401);
  });
});

describe('POST /api/membership/reactivate', () => {
  it('brings a POR_TERMINAR member back to Premium/BIEN and resumes billing', async () => {
    const { cookie, user, subscriptionId } = await providerPremium();
    await post('/api/membership/downgrade', cookie);
    const response = await post('/api/membership/reactivate', cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json().membership).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN', canDowngrade: true });
    await simulator(t).settled();
    expect(await userRow(user.id)).toMatchObject({
      type: 'Premium',
      paymentStatus: 'BIEN',
      terminationDate: null,
      subscriptionId,
    });
    expect((await t.app.services.paymentProvider.getSubscription(subscriptionId))!.status).toBe('ACTIVE');
  });

  it('stays Premium/BIEN when a reconcile that read the suspension writes after the reactivation (decision 062)', async () => {
    const { cookie, user, subscriptionId } = await providerPremium();
    await post('/api/membership/downgrade', cookie);
    await settle(t);
    // a webhook's reconcile reads SUSPENDED from the provider, then waits while the member reactivates
    const provider = simulator(t);
    const read = signal();
    const release = signal();
    const realRead = provider.getSubscription.bind(provider);
    const held = vi.spyOn(provider, 'getSubscription').mockImplementationOnce(async (id) => {
      const snapshot = await realRead(id);
      read.resolve();
      await release.promise;
      return snapshot;
    });
    const stale = t.app.services.payments.reconcileSubscription(subscriptionId);
    await read.promise;
    const response = await post('/api/membership/reactivate', cookie);
    expect(response.statusCode).toBe(200);
    await settle(t);
    release.resolve();
    await stale;
    held.mockRestore();
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN', terminationDate: null });
    const [row] = await t.db
      .select()
      .from(paymentSubscriptions)
      .where(eq(paymentSubscriptions.providerSubscriptionId, subscriptionId));
    expect(row!.state).toBe('ACTIVA');
  });

  it('leaves the account and its e-mail as they were when a reconcile dies inside its transaction; the next applies it once', async () => {
    const { user, subscriptionId } = await providerPremium();
    const membership = t.app.services.membership;
    const realApply = membership.applyUnlessChanged.bind(membership);
    // the process dies after the reconcile wrote the account, before its transaction commits
    const dying = vi.spyOn(membership, 'applyUnlessChanged').mockImplementationOnce(async (row, apply) =>
      realApply(row, async (outcomes, tx) => {
        await apply(outcomes, tx);
        throw new Error('proceso terminado');
      }),
    );
    // suspended from the provider's side: its webhook's job reconciles, and dies
    await simulator(t).suspendSubscription(subscriptionId, 'desde el panel del proveedor');
    await settle(t);
    expect(dying).toHaveBeenCalledTimes(1);
    dying.mockRestore();
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN' });
    expect(await downgradeMails(user.email)).toBe(0);
    const [job] = await t.db.select().from(jobs).where(eq(jobs.lastError, 'proceso terminado'));
    expect(job, 'the webhook job waits to be run again').toMatchObject({ doneAt: null });

    // its next run (the runner's retry, or the daily reconcile) applies it, with one e-mail
    await t.app.services.payments.reconcileSubscription(subscriptionId);
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'POR_TERMINAR' });
    expect(await downgradeMails(user.email)).toBe(1);
  });

  it("leaves the account as it was when a reconcile's e-mail cannot be written; the next applies it with its e-mail (decision 067)", async () => {
    const { user, subscriptionId } = await providerPremium();
    const restore = await failMailWrites(t.db);
    try {
      // suspended from the provider's side: its webhook's job reconciles, and fails on the e-mail
      await simulator(t).suspendSubscription(subscriptionId, 'desde el panel del proveedor');
      await settle(t);
    } finally {
      await restore();
    }
    // before, the account changed and the e-mail was lost: the retry found nothing left to change
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN' });
    expect(await downgradeMails(user.email)).toBe(0);

    await t.app.services.payments.reconcileSubscription(subscriptionId);
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'POR_TERMINAR' });
    expect(await downgradeMails(user.email)).toBe(1);
  });

  it('reads at most three times while our record keeps changing, then fails and changes nothing', async () => {
    const { cookie, user, subscriptionId } = await providerPremium();
    await post('/api/membership/downgrade', cookie);
    await settle(t);
    const provider = simulator(t);
    const realRead = provider.getSubscription.bind(provider);
    const touched = vi.spyOn(provider, 'getSubscription').mockImplementation(async (id) => {
      const snapshot = await realRead(id);
      // something writes our record after every read (an UPDATE that changes no value still makes a new version)
      await t.db
        .update(paymentSubscriptions)
        .set({ state: 'SUSPENDIDA' })
        .where(eq(paymentSubscriptions.providerSubscriptionId, subscriptionId));
      return snapshot;
    });
    await t.db.update(users).set({ type: 'Premium', paymentStatus: 'BIEN' }).where(eq(users.id, user.id));
    await expect(t.app.services.payments.reconcileSubscription(subscriptionId)).rejects.toThrow(/kept changing/);
    expect(touched).toHaveBeenCalledTimes(3);
    touched.mockRestore();
    // the stale SUSPENDED answer was never applied to the account
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN' });
  });

  it("answers Premium/BIEN when the resumed subscription's webhook was applied before the reactivation's own write", async () => {
    const { cookie, user, subscriptionId } = await providerPremium();
    await post('/api/membership/downgrade', cookie);
    await settle(t);
    const provider = simulator(t);
    const realResume = provider.activateSubscription.bind(provider);
    const resumed = vi.spyOn(provider, 'activateSubscription').mockImplementationOnce(async (id, reason) => {
      await realResume(id, reason);
      // the ACTIVATED webhook arrives and is applied before this request writes
      await settle(t);
    });
    const response = await post('/api/membership/reactivate', cookie);
    resumed.mockRestore();
    expect(response.statusCode).toBe(200);
    expect(response.json().membership).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN' });
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN', subscriptionId });
  });

  it('is refused once the paid period is over, and to members who are not POR_TERMINAR', async () => {
    const ended = await signedInAs(t, {
      type: 'Gratis',
      paymentStatus: 'POR_TERMINAR',
      terminationDate: new Date(Date.now() - day),
    });
    expect((await post('/api/membership/reactivate', ended.cookie)).statusCode).toBe(409);
    const basic = await signedInAs(t, { type: 'Gratis' });
    expect((await post('/api/membership/reactivate', basic.cookie)).statusCode).toBe(409);
    expect((await post('/api/membership/reactivate')).statusCode).toBe(401);
  });
});

describe('POST /api/membership/check', () => {
  it('ends a downgrade past its date: Gratis/CANCELLED, provider subscription cancelled, and says so once', async () => {
    const { cookie, user, subscriptionId } = await providerPremium();
    await post('/api/membership/downgrade', cookie);
    await t.db
      .update(users)
      .set({ terminationDate: new Date(Date.now() - 1000) })
      .where(eq(users.id, user.id));
    const first = await post('/api/membership/check', cookie);
    expect(first.json()).toEqual({ changed: true });
    await simulator(t).settled();
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'CANCELLED', terminationDate: null });
    expect((await t.app.services.paymentProvider.getSubscription(subscriptionId))!.status).toBe('CANCELLED');
    expect((await post('/api/membership/check', cookie)).json()).toEqual({ changed: false });
    expect((await me(cookie)).hasPremiumAccess).toBe(false);
  });

  it('leaves a downgrade alone before its date', async () => {
    const { cookie, user } = await signedInAs(t, {
      type: 'Gratis',
      paymentStatus: 'POR_TERMINAR',
      terminationDate: new Date(Date.now() + day),
    });
    expect((await post('/api/membership/check', cookie)).json()).toEqual({ changed: false });
    expect((await userRow(user.id)).paymentStatus).toBe('POR_TERMINAR');
  });

  it('turns a Legacy member into Gratis after terminationDate, not before', async () => {
    const ended = await signedInAs(t, { type: 'Legacy', terminationDate: new Date(Date.now() - 1000) });
    const active = await signedInAs(t, { type: 'Legacy', terminationDate: new Date(Date.now() + day) });
    expect((await post('/api/membership/check', ended.cookie)).json()).toEqual({ changed: true });
    expect((await post('/api/membership/check', active.cookie)).json()).toEqual({ changed: false });
    expect((await userRow(ended.user.id)).type).toBe('Gratis');
    expect((await userRow(active.user.id)).type).toBe('Legacy');
  });

  it('ends a manual Premium one period after its payment day', async () => {
    const expired = await signedInAs(t, {
      type: 'Premium',
      subscriptionId: 'MANUAL',
      annualPlan: false,
      paymentDay: new Date(Date.now() - 31 * day),
    });
    const monthly = await signedInAs(t, {
      type: 'Premium',
      subscriptionId: 'MANUAL',
      annualPlan: false,
      paymentDay: new Date(Date.now() - 29 * day),
    });
    const annual = await signedInAs(t, {
      type: 'Premium',
      subscriptionId: 'MANUAL',
      annualPlan: true,
      paymentDay: new Date(Date.now() - 200 * day),
    });
    expect((await post('/api/membership/check', expired.cookie)).json()).toEqual({ changed: true });
    expect(await userRow(expired.user.id)).toMatchObject({
      type: 'Gratis',
      paymentStatus: 'BIEN',
      subscriptionId: null,
      paymentDay: null,
      annualPlan: false,
    });
    expect((await post('/api/membership/check', monthly.cookie)).json()).toEqual({ changed: false });
    expect((await post('/api/membership/check', annual.cookie)).json()).toEqual({ changed: false });
  });

  it('leaves a billed Premium and a Basic member alone', async () => {
    const { cookie } = await providerPremium();
    expect((await post('/api/membership/check', cookie)).json()).toEqual({ changed: false });
    const basic = await signedInAs(t, { type: 'Gratis' });
    expect((await post('/api/membership/check', basic.cookie)).json()).toEqual({ changed: false });
  });

  it('is refused to a guest', async () => {
    expect((await post('/api/membership/check')).statusCode).toBe(401);
  });
});

describe('the scheduled membership job', () => {
  it('applies every due change once, however many runners poll at the same time', async () => {
    const legacy = await createUser(t, { type: 'Legacy', terminationDate: new Date(Date.now() - 1000) });
    const manual = await createUser(t, {
      type: 'Premium',
      subscriptionId: 'MANUAL',
      paymentDay: new Date(Date.now() - 40 * day),
    });
    const leaving = await createUser(t, {
      type: 'Gratis',
      paymentStatus: 'POR_TERMINAR',
      terminationDate: new Date(Date.now() - 1000),
    });
    const staying = await createUser(t, {
      type: 'Gratis',
      paymentStatus: 'POR_TERMINAR',
      terminationDate: new Date(Date.now() + day),
    });
    const runner = t.app.services.jobs;
    await runner.schedule('membership.sweep', { uniqueKey: 'test-sweep' });
    await runner.schedule('membership.sweep', { uniqueKey: 'test-sweep' });
    const ran = await Promise.all([runner.runDue(), runner.runDue()]);
    expect(ran.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect((await userRow(legacy.id)).type).toBe('Gratis');
    expect((await userRow(manual.id)).type).toBe('Gratis');
    expect((await userRow(leaving.id)).paymentStatus).toBe('CANCELLED');
    expect((await userRow(staying.id)).paymentStatus).toBe('POR_TERMINAR');
    const queued = await t.db.select().from(jobs).where(eq(jobs.kind, 'membership.sweep'));
    expect(queued.filter((job) => job.doneAt === null && job.runAt <= new Date())).toHaveLength(0);
  });
});

describe('upgrade from Basic', () => {
  it('goes through the provider and sends the UPGRADE e-mail', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis', paymentStatus: 'CANCELLED' });
    const start = await t.app.inject({
      method: 'POST',
      url: '/api/payments/subscriptions',
      headers: { cookie, origin: testPublicUrl },
      payload: { plan: 'monthly', returnTo: 'profile' },
    });
    const { subscriptionId } = start.json();
    const back = await pressCheckout(t, subscriptionId, 'approve');
    expect(new URL(String(back.headers.location)).pathname).toBe('/perfil');
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN', annualPlan: false });
    const subjects = (await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email))).map(
      (mail) => mail.subject,
    );
    expect(subjects).toEqual(['Tu membresía CxVet ahora es Premium']);
  });
});
