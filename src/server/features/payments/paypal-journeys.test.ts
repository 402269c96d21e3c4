import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { diplomaTransactions, diplomaUsers, mailOutbox, payments, users } from '#server/db/schema/index.ts';
import { createPayPalProvider, type PayPalOptions } from '#server/services/payments/paypal-provider.ts';
import { ProviderError } from '#server/services/payments/payment-provider.ts';
import { webhookLimitPerMinute } from './payments.routes.ts';
import { startPayPalFake, type PayPalFake } from '#server/services/payments/paypal-fake.testing.ts';
import { createDiploma, memberRequest } from '#server/features/diplomas/diplomas.testing.ts';

const planIds = { monthly: 'P-MENSUAL', annual: 'P-ANUAL' };
let fake: PayPalFake;
type FakeSub = NonNullable<ReturnType<PayPalFake['subscriptions']['get']>>;
let t: TestApp;

beforeAll(async () => {
  fake = await startPayPalFake({
    clientId: 'cliente',
    clientSecret: 'secreto',
    planIds: { 'P-MENSUAL': 'monthly', 'P-ANUAL': 'annual' },
    webhookId: 'WH-ID',
  });
  t = await createTestApp({
    paymentsProvider: 'paypal',
    paypal: { apiUrl: fake.url, clientId: 'cliente', clientSecret: 'secreto', planIds, webhookId: 'WH-ID' },
  });
}, 180_000);
afterAll(async () => {
  await t.close();
  await fake.close();
});

const userRow = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0]!;
const historyOf = async (id: string) =>
  (await t.db.select().from(payments).where(eq(payments.userId, id))).map((row) => row.result).sort();
const api = (cookie: string, url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: { cookie, origin: testPublicUrl }, payload });
const enrolments = (diplomaId: string, userId: string) =>
  t.db
    .select()
    .from(diplomaUsers)
    .where(and(eq(diplomaUsers.diplomaId, diplomaId), eq(diplomaUsers.userId, userId)));
const transactionOf = async (orderId: string) =>
  (await t.db.select().from(diplomaTransactions).where(eq(diplomaTransactions.providerOrderId, orderId)))[0]!;

/** Delivers a webhook as PayPal does and runs the job it queued. */
async function deliver(hook: { rawBody: string; headers: Record<string, string> }) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/payments/webhooks/paypal',
    headers: hook.headers,
    payload: hook.rawBody,
  });
  await t.app.services.jobs.runDue();
  return response;
}

/** A Premium member who bought a diploma through PayPal and was enrolled. */
async function diplomaBuyer() {
  const { cookie, user } = await signedInAs(t, { type: 'Premium' });
  const diploma = await createDiploma(t, { isExternal: true });
  const started = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase`);
  expect(started.statusCode).toBe(200);
  const { orderId } = started.json() as { orderId: string };
  fake.approveOrder(orderId);
  return { cookie, user, diploma, orderId };
}

describe('a refunded or reversed diploma purchase (PayPal names only the capture)', () => {
  for (const reversed of [false, true]) {
    it(`removes access and shows the refund in the history when PayPal ${reversed ? 'reverses' : 'refunds'} the capture`, async () => {
      const { cookie, user, diploma, orderId } = await diplomaBuyer();
      const confirmed = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/confirm`, {
        orderId,
      });
      expect(confirmed.json()).toEqual({ isEnrolled: true });
      expect(await enrolments(diploma.id, user.id)).toHaveLength(1);
      const hook = fake.refundCapture(orderId, reversed);
      // PayPal's refund resource has no related_ids: only its link rel "up" names the capture
      expect(hook.rawBody).not.toContain('related_ids');
      expect((await deliver(hook)).statusCode).toBe(200);
      expect(await enrolments(diploma.id, user.id)).toHaveLength(0);
      expect(await historyOf(user.id)).toEqual(['REEMBOLSADO']);
      expect((await transactionOf(orderId)).status).toBe('REFUNDED');
    });
  }
});

describe('a capture PayPal already completed for a racing call', () => {
  it('enrols the member whose browser return lost the race to the approval job, instead of "Pago rechazado"', async () => {
    const { cookie, user, diploma, orderId } = await diplomaBuyer();
    fake.raceCapture(orderId);
    const confirmed = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/confirm`, {
      orderId,
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json()).toEqual({ isEnrolled: true });
    expect(await enrolments(diploma.id, user.id)).toHaveLength(1);
    expect(await historyOf(user.id)).toEqual(['COMPLETADO']);
  });

  it('applies the approval webhook whose capture lost the race to the browser, in one job run', async () => {
    const { user, diploma, orderId } = await diplomaBuyer();
    fake.raceCapture(orderId);
    const response = await deliver(fake.webhook('CHECKOUT.ORDER.APPROVED', { id: orderId, status: 'APPROVED' }));
    expect(response.statusCode).toBe(200);
    expect(await enrolments(diploma.id, user.id)).toHaveLength(1);
    expect(await historyOf(user.id)).toEqual(['COMPLETADO']);
    expect((await transactionOf(orderId)).status).toBe('COMPLETED');
  });

  it('still answers a declined instrument as declined after reading the order again', async () => {
    const { cookie, user, diploma, orderId } = await diplomaBuyer();
    fake.approveOrder(orderId, 'DECLINED');
    const confirmed = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/confirm`, {
      orderId,
    });
    expect(confirmed.statusCode).toBe(402);
    expect(await enrolments(diploma.id, user.id)).toHaveLength(0);
    expect(
      fake.requests.filter((request) => request.method === 'GET' && request.url === `/v2/checkout/orders/${orderId}`)
        .length,
    ).toBeGreaterThanOrEqual(2);
  });
});

/** A Basic member who started a PayPal checkout; PayPal's record is changed before it is approved. */
async function checkout(plan: 'monthly' | 'annual' = 'monthly') {
  const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
  const start = await api(cookie, '/api/payments/subscriptions', { plan, returnTo: 'profile' });
  expect(start.statusCode).toBe(200);
  const { subscriptionId } = start.json() as { subscriptionId: string };
  return { cookie, user, subscriptionId };
}
const activated = (subscriptionId: string) =>
  fake.webhook('BILLING.SUBSCRIPTION.ACTIVATED', { id: subscriptionId, status: 'ACTIVE' });

describe('a paid subscription grants Premium only for what we sell', () => {
  it('grants Premium for our plan id, paid at its price in USD, by the account named in custom_id', async () => {
    const { user, subscriptionId } = await checkout('annual');
    fake.approve(subscriptionId);
    await deliver(activated(subscriptionId));
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium', annualPlan: true, subscriptionId });
  });

  it.each([
    ['a plan id that is not one of ours', (sub: FakeSub) => void (sub.plan_id = 'P-REGALO')],
    ['a payment of another amount', (sub: FakeSub) => void (sub.transactions.at(-1)!.value = '0.01')],
    ['a payment in another currency', (sub: FakeSub) => void (sub.transactions.at(-1)!.currency = 'MXN')],
    ['no custom_id', (sub: FakeSub) => void (sub.custom_id = '')],
  ])('refuses Premium to a subscription with %s', async (_case, change) => {
    const { user, subscriptionId } = await checkout();
    fake.approve(subscriptionId);
    change(fake.subscriptions.get(subscriptionId)!);
    expect((await deliver(activated(subscriptionId))).statusCode).toBe(200);
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis', subscriptionId: null });
  });
});

/** A Basic member who subscribed through PayPal and paid: Premium, with PayPal's next billing time. */
async function premiumMember(nextBillingTime = new Date(Date.now() + 29 * 86_400_000 + 3_600_000)) {
  nextBillingTime.setUTCMilliseconds(0);
  const { cookie, user, subscriptionId } = await checkout();
  fake.approve(subscriptionId, 'COMPLETED', nextBillingTime.toISOString());
  await deliver(activated(subscriptionId));
  expect(await userRow(user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN', subscriptionId });
  return { cookie, user, subscriptionId, nextBillingTime };
}
const downgrade = (cookie: string) => api(cookie, '/api/membership/downgrade');

describe('a subscription suspended at PayPal with no failed payment', () => {
  it('ends billing: the member keeps Premium benefits until the paid period ends (dashboard suspension)', async () => {
    const { user, subscriptionId, nextBillingTime } = await premiumMember();
    fake.subscriptions.get(subscriptionId)!.status = 'SUSPENDED';
    await deliver(fake.webhook('BILLING.SUBSCRIPTION.SUSPENDED', { id: subscriptionId, status: 'SUSPENDED' }));
    expect(await userRow(user.id)).toMatchObject({
      type: 'Gratis',
      paymentStatus: 'POR_TERMINAR',
      terminationDate: nextBillingTime,
    });
    // the type changed, so the member is told when the benefits end, as after the in-app downgrade (spec 1 §7)
    const told = async () =>
      (await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email))).filter(
        (mail) => mail.subject === 'Tu membresía CxVet cambiará a Básica',
      );
    expect(await told()).toHaveLength(1);
    // PayPal redelivers the webhook: nothing changes, nothing is sent again
    await deliver(fake.webhook('BILLING.SUBSCRIPTION.SUSPENDED', { id: subscriptionId, status: 'SUSPENDED' }));
    expect(await told()).toHaveLength(1);
  });

  it('counts as a completed downgrade when the suspend answer was lost, instead of failing for ever', async () => {
    const { cookie, user, subscriptionId, nextBillingTime } = await premiumMember();
    // PayPal suspended it, the answer never arrived
    fake.fail(`POST /v1/billing/subscriptions/${subscriptionId}/suspend`, 503, 1, true);
    expect((await downgrade(cookie)).statusCode).toBe(503);
    expect(fake.subscriptions.get(subscriptionId)!.status).toBe('SUSPENDED');
    const again = await downgrade(cookie);
    expect(again.statusCode).toBe(200);
    expect(await userRow(user.id)).toMatchObject({
      type: 'Gratis',
      paymentStatus: 'POR_TERMINAR',
      terminationDate: nextBillingTime,
    });
  });

  it('counts a subscription cancelled at PayPal as a completed downgrade too', async () => {
    const { cookie, user, subscriptionId } = await premiumMember();
    fake.subscriptions.get(subscriptionId)!.status = 'CANCELLED';
    expect((await downgrade(cookie)).statusCode).toBe(200);
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'POR_TERMINAR' });
  });

  it('is repaired by the daily reconciliation when its webhook never arrived, and counted', async () => {
    const suspended = await premiumMember();
    const cancelled = await premiumMember();
    const intact = await premiumMember();
    fake.subscriptions.get(suspended.subscriptionId)!.status = 'SUSPENDED';
    fake.subscriptions.get(cancelled.subscriptionId)!.status = 'CANCELLED';
    const first = await t.app.services.payments.reconcileLiveSubscriptions();
    expect(first.repaired).toBeGreaterThanOrEqual(2);
    expect(await userRow(suspended.user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'POR_TERMINAR' });
    expect(await userRow(cancelled.user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'POR_TERMINAR' });
    expect(await userRow(intact.user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN' });
    const second = await t.app.services.payments.reconcileLiveSubscriptions();
    expect(second).toMatchObject({ repaired: 0, failed: 0 });
  });
});

describe('a subscription cancelled at PayPal (the member’s PayPal account)', () => {
  it('keeps the benefits until next_billing_time (POR_TERMINAR), then CANCELLED', async () => {
    const { user, subscriptionId, nextBillingTime } = await premiumMember();
    fake.subscriptions.get(subscriptionId)!.status = 'CANCELLED';
    await deliver(fake.webhook('BILLING.SUBSCRIPTION.CANCELLED', { id: subscriptionId, status: 'CANCELLED' }));
    expect(await userRow(user.id)).toMatchObject({
      type: 'Gratis',
      paymentStatus: 'POR_TERMINAR',
      terminationDate: nextBillingTime,
    });
    // the paid period ends
    await t.db
      .update(users)
      .set({ terminationDate: new Date(Date.now() - 1000) })
      .where(eq(users.id, user.id));
    expect(await t.app.services.membership.applyDueChanges(user.id)).toBe(true);
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'CANCELLED' });
  });
});

const paypalClient = (extra: Partial<PayPalOptions> = {}) =>
  createPayPalProvider({
    apiUrl: fake.url,
    clientId: 'cliente',
    clientSecret: 'secreto',
    planIds,
    webhookId: 'WH-ID',
    backoffMs: 5,
    ...extra,
  });
const longDateText = (date: Date) =>
  new Intl.DateTimeFormat('es-MX', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);
const tokenRequests = () => fake.requests.filter((request) => request.url === '/v1/oauth2/token').length;

describe('PayPal access tokens', () => {
  it('reports a rejected secret once, as a configuration error naming the variables, not as PayPal down', async () => {
    const lines: { obj: object; msg?: string }[] = [];
    const record = (obj: object, msg?: string) => void lines.push({ obj, msg });
    const paypal = paypalClient({ clientSecret: 'rotado', log: { warn: record, error: record } });
    const before = tokenRequests();
    const error = await paypal.getOrder('NO-EXISTE').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ details: { name: 'invalid_client' } });
    expect(tokenRequests() - before).toBe(1);
    expect(lines.map((line) => line.msg).join('\n')).toMatch(/PAYPAL_CLIENT_ID.*PAYPAL_CLIENT_SECRET/);
    expect(lines.map((line) => line.msg)).not.toContain('paypal call did not answer');
  });

  it('asks for a fresh token once when PayPal refuses the cached one mid-session (401), and goes on', async () => {
    const paypal = paypalClient();
    const { id } = await paypal.createOrder({
      amountCents: 5000,
      description: 'Curso',
      customId: 'u',
      returnUrl: 'http://l/ok',
      cancelUrl: 'http://l/no',
    });
    const before = tokenRequests();
    fake.revokeToken();
    expect(await paypal.getOrder(id)).toMatchObject({ id, amountCents: 5000 });
    expect(tokenRequests() - before).toBe(1);
    const reads = fake.requests.filter((request) => request.url === `/v2/checkout/orders/${id}`);
    expect(reads).toHaveLength(2);
  });
});

describe("PayPal's Prefer header", () => {
  it('answers a capture minimally (id, status, links) unless return=representation is asked for', async () => {
    const paypal = paypalClient();
    const { id } = await paypal.createOrder({
      amountCents: 5000,
      description: 'Curso',
      customId: 'u',
      returnUrl: 'http://l/ok',
      cancelUrl: 'http://l/no',
    });
    fake.approveOrder(id);
    // the adapter asks for the whole record, so the capture's status and id arrive with the answer
    expect(await paypal.captureOrder(id)).toMatchObject({ captureStatus: 'COMPLETED', amountCents: 5000 });
    const created = fake.requests.findLast((request) => request.url === '/v2/checkout/orders')!;
    expect(created.headers.prefer).toBe('return=representation');
    const token = (created.headers.authorization as string).replace('Bearer ', '');
    const minimal = await fetch(`${fake.url}/v2/checkout/orders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        intent: 'CAPTURE',
        purchase_units: [{ amount: { currency_code: 'USD', value: '1.00' } }],
      }),
    });
    expect(Object.keys((await minimal.json()) as object).sort()).toEqual(['id', 'links', 'status']);
  });
});

describe('the next payment date is the one PayPal bills on', () => {
  it('is shown in the profile and the upgrade e-mail as PayPal’s next_billing_time, not paymentDay + 30 days', async () => {
    // a calendar month from a 31st: PayPal bills 31 days later, our own arithmetic would say 30
    const next = new Date(Date.now() + 31 * 86_400_000 + 7_200_000);
    const { cookie, user, nextBillingTime } = await premiumMember(next);
    const profile = await t.app.inject({ method: 'GET', url: '/api/profile', headers: { cookie } });
    expect(profile.json().membership.nextPaymentDate).toBe(nextBillingTime.toISOString());
    const [mail] = await t.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, user.email))
      .orderBy(desc(mailOutbox.createdAt))
      .limit(1);
    expect(mail!.text).toContain(`Tu próxima fecha de pago es el ${longDateText(nextBillingTime)}.`);
  });
});

describe('the webhook route', () => {
  const verifyCalls = () =>
    fake.requests.filter((request) => request.url === '/v1/notifications/verify-webhook-signature').length;

  it('answers a replayed transmission as a duplicate without asking PayPal to verify it again', async () => {
    const { user, subscriptionId } = await checkout();
    fake.approve(subscriptionId);
    const hook = activated(subscriptionId);
    expect((await deliver(hook)).json()).toEqual({ received: true, outcome: 'stored' });
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium' });
    const before = verifyCalls();
    const replays = await Promise.all(Array.from({ length: 5 }, () => deliver(hook)));
    expect(replays.map((reply) => reply.json())).toEqual(
      Array.from({ length: 5 }, () => ({ received: true, outcome: 'duplicate' })),
    );
    expect(verifyCalls()).toBe(before);
  });

  it('lands a genuine retry PayPal sends days later, and refuses one older than its whole retry period', async () => {
    const { user, subscriptionId } = await checkout();
    fake.approve(subscriptionId);
    const late = fake.webhook('BILLING.SUBSCRIPTION.ACTIVATED', { id: subscriptionId, status: 'ACTIVE' }, undefined, {
      transmissionTime: new Date(Date.now() - 3 * 86_400_000 + 60_000).toISOString(),
    });
    expect((await deliver(late)).statusCode).toBe(200);
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium' });
    const stale = fake.webhook(
      'BILLING.SUBSCRIPTION.CANCELLED',
      { id: subscriptionId, status: 'CANCELLED' },
      undefined,
      {
        transmissionTime: new Date(Date.now() - 5 * 86_400_000).toISOString(),
      },
    );
    const before = verifyCalls();
    expect((await deliver(stale)).statusCode).toBe(401);
    expect(verifyCalls()).toBe(before);
  });

  it('lands the retry of a delivery whose verification failed, and never repeats the verify call itself', async () => {
    const { user, subscriptionId } = await checkout();
    fake.approve(subscriptionId);
    const hook = activated(subscriptionId);
    fake.fail('POST /v1/notifications/verify-webhook-signature', 503, 1);
    const before = verifyCalls();
    const first = await deliver(hook);
    expect(first.statusCode).toBeGreaterThanOrEqual(500);
    expect(verifyCalls() - before).toBe(1);
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis' });
    // PayPal resends the same delivery
    expect((await deliver(hook)).json()).toEqual({ received: true, outcome: 'stored' });
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium' });
  });

  it(`limits deliveries per IP to ${webhookLimitPerMinute} a minute`, { timeout: 120_000 }, async () => {
    const forged = { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' };
    const post = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/payments/webhooks/paypal',
        headers: forged,
        payload: '{}',
        remoteAddress: '203.0.113.9',
      });
    const answers: number[] = [];
    for (let sent = 0; sent < webhookLimitPerMinute; sent += 50)
      answers.push(...(await Promise.all(Array.from({ length: 50 }, post))).map((reply) => reply.statusCode));
    expect(answers.every((status) => status === 401)).toBe(true);
    expect((await post()).statusCode).toBe(429);
  });
});
