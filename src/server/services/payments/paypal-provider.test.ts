import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { paymentWebhookEvents, payments, users } from '#server/db/schema/index.ts';
import type { OrderEvent } from '#server/features/payments/payments-orders.ts';
import { createPayPalProvider, type PayPalOptions } from './paypal-provider.ts';
import { startPayPalFake, type PayPalFake } from './paypal-fake.testing.ts';
import { ProviderError } from './payment-provider.ts';

const planIds = { monthly: 'P-MENSUAL', annual: 'P-ANUAL' };
let fake: PayPalFake;
let t: TestApp;
const orderEvents: OrderEvent[] = [];

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
  t.app.services.payments.onOrder(async (event) => void orderEvents.push(event));
  // a fresh database with every migration: slow on a busy machine
}, 180_000);
afterAll(async () => {
  await t.close();
  await fake.close();
});

const provider = (extra: Partial<PayPalOptions> = {}) =>
  createPayPalProvider({
    apiUrl: fake.url,
    clientId: 'cliente',
    clientSecret: 'secreto',
    planIds,
    webhookId: 'WH-ID',
    backoffMs: 5,
    ...extra,
  });
const userRow = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0]!;
const historyOf = async (id: string) =>
  (await t.db.select().from(payments).where(eq(payments.userId, id))).map((row) => row.result).sort();
const api = (cookie: string, url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: { cookie, origin: testPublicUrl }, payload });

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

/** A Basic member who subscribed through PayPal and paid: Premium. */
async function premiumMember(plan: 'monthly' | 'annual' = 'monthly', nextBillingTime?: string) {
  const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
  const start = await api(cookie, '/api/payments/subscriptions', { plan, returnTo: 'profile' });
  expect(start.statusCode).toBe(200);
  const { subscriptionId } = start.json() as { subscriptionId: string };
  const sale = fake.approve(subscriptionId, 'COMPLETED', nextBillingTime);
  expect(
    (await deliver(fake.webhook('BILLING.SUBSCRIPTION.ACTIVATED', { id: subscriptionId, status: 'ACTIVE' })))
      .statusCode,
  ).toBe(200);
  expect(await userRow(user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN', subscriptionId });
  return { cookie, user, subscriptionId, sale };
}

describe('the PayPal provider against a strict PayPal', () => {
  it('creates a subscription (201) with the plan id and our user as custom_id, and reads it back', async () => {
    const paypal = provider();
    const created = await paypal.createSubscription({
      plan: 'annual',
      customId: 'user-1',
      returnUrl: 'http://localhost/ok',
      cancelUrl: 'http://localhost/no',
      requestId: 'k-1',
    });
    expect(created.approvalUrl).toContain('sandbox.paypal.com');
    expect(fake.subscriptions.get(created.id)).toMatchObject({ plan_id: 'P-ANUAL', custom_id: 'user-1' });
    fake.approve(created.id);
    expect(await paypal.getSubscription(created.id)).toMatchObject({
      status: 'ACTIVE',
      plan: 'annual',
      customId: 'user-1',
      lastPayment: { amountCents: 9990 },
    });
    expect(await paypal.listTransactions(created.id)).toMatchObject([
      { result: 'COMPLETADO', amountCents: 9990, currency: 'USD' },
    ]);
    expect(await paypal.getSubscription('I-NO-EXISTE')).toBeNull();
  });

  it('is refused a capture before approval, captures once after it, and never twice', async () => {
    const paypal = provider();
    const order = await paypal.createOrder({
      amountCents: 150000,
      description: 'Diplomado',
      customId: 'user-2',
      returnUrl: 'http://localhost/ok',
      cancelUrl: 'http://localhost/no',
    });
    expect(await paypal.getOrder(order.id)).toMatchObject({
      status: 'CREATED',
      amountCents: 150000,
      currency: 'USD',
      customId: 'user-2',
    });
    await expect(paypal.captureOrder(order.id)).rejects.toMatchObject({
      status: 422,
      details: { issue: 'ORDER_NOT_APPROVED' },
    });
    fake.approveOrder(order.id);
    expect(await paypal.captureOrder(order.id)).toMatchObject({ status: 'COMPLETED', captureStatus: 'COMPLETED' });
    // the same request id: PayPal answers the first capture again instead of charging
    expect(await paypal.captureOrder(order.id)).toMatchObject({ status: 'COMPLETED', captureStatus: 'COMPLETED' });
  });
});

describe('#18.1 failed renewals take Premium away', () => {
  it('reads last_failed_payment (asked for with fields=) and turns a failed renewal into FALLIDO', async () => {
    const { user, subscriptionId } = await premiumMember();
    fake.charge(subscriptionId, 'DECLINED');
    await deliver(fake.webhook('BILLING.SUBSCRIPTION.PAYMENT.FAILED', { id: subscriptionId, status: 'ACTIVE' }));
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'FALLIDO' });
    expect(
      fake.requests.some((request) =>
        request.url.includes(`/subscriptions/${subscriptionId}?fields=last_failed_payment`),
      ),
    ).toBe(true);
  });

  it('turns a subscription PayPal suspended after repeated failures into FALLIDO', async () => {
    const { user, subscriptionId } = await premiumMember();
    fake.suspendForFailures(subscriptionId);
    await deliver(fake.webhook('BILLING.SUBSCRIPTION.SUSPENDED', { id: subscriptionId, status: 'SUSPENDED' }));
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'FALLIDO' });
  });
});

describe('#18.2 webhook verification uses the raw body', () => {
  it('accepts an event whose bytes a re-serialisation would change (\\u00e9, \\/, 10.0)', async () => {
    const { user, subscriptionId } = await premiumMember();
    fake.charge(subscriptionId, 'DECLINED');
    const hook = fake.webhook(
      'BILLING.SUBSCRIPTION.PAYMENT.FAILED',
      { id: subscriptionId, status: 'ACTIVE', note: 'pagoXX', amount: { value: 10 } },
      (raw) => raw.replace('pagoXX', 'pag\\u00f3 \\/ tarjeta').replace('"value":10', '"value":10.0'),
    );
    const response = await deliver(hook);
    expect(response.statusCode).toBe(200);
    expect(await userRow(user.id)).toMatchObject({ paymentStatus: 'FALLIDO' });
  });

  it('refuses a forged or tampered event and stores nothing', async () => {
    const hook = fake.webhook('BILLING.SUBSCRIPTION.ACTIVATED', { id: 'I-FORJADO', status: 'ACTIVE' });
    const tampered = await deliver({ ...hook, rawBody: hook.rawBody.replace('I-FORJADO', 'I-OTRO') });
    expect(tampered.statusCode).toBe(401);
    const forged = await deliver({ ...hook, headers: { ...hook.headers, 'paypal-transmission-sig': 'firma-falsa' } });
    expect(forged.statusCode).toBe(401);
    expect(await t.db.select().from(paymentWebhookEvents).where(eq(paymentWebhookEvents.id, hook.id))).toHaveLength(0);
  });
});

describe('#18.3 PayPal-Request-Id', () => {
  it('makes a retried subscription creation create one subscription', async () => {
    const before = fake.subscriptions.size;
    // PayPal created it, the answer was lost: the adapter retries with the same key
    fake.fail('POST /v1/billing/subscriptions', 503, 1, true);
    const created = await provider().createSubscription({
      plan: 'monthly',
      customId: 'u',
      returnUrl: 'http://l/ok',
      cancelUrl: 'http://l/no',
      requestId: 'intent-1',
    });
    expect(fake.subscriptions.size).toBe(before + 1);
    expect(fake.subscriptions.has(created.id)).toBe(true);
    const keys = fake.requests
      .filter((request) => request.method === 'POST' && request.url === '/v1/billing/subscriptions')
      .slice(-2)
      .map((request) => request.headers['paypal-request-id']);
    expect(keys).toEqual(['intent-1', 'intent-1']);
  });

  it('is sent on order creation and makes a retried capture charge once', async () => {
    const paypal = provider();
    const order = await paypal.createOrder({
      amountCents: 5000,
      description: 'Curso',
      customId: 'u',
      returnUrl: 'http://l/ok',
      cancelUrl: 'http://l/no',
      requestId: 'order-1',
    });
    expect(
      fake.requests.findLast((request) => request.url === '/v2/checkout/orders')!.headers['paypal-request-id'],
    ).toBe('order-1');
    fake.approveOrder(order.id);
    fake.fail(`POST /v2/checkout/orders/${order.id}/capture`, 503, 1, true);
    expect(await paypal.captureOrder(order.id)).toMatchObject({ captureStatus: 'COMPLETED' });
    const captures = fake.requests.filter((request) => request.url === `/v2/checkout/orders/${order.id}/capture`);
    expect(captures).toHaveLength(2);
    expect(new Set(captures.map((request) => request.headers['paypal-request-id'])).size).toBe(1);
    expect(fake.orders.get(order.id)!.capture).not.toBeNull();
  });
});

describe('#18.4 timeouts and retries', () => {
  it('gives up on a PayPal that does not answer in time', async () => {
    const created = await provider().createSubscription({
      plan: 'monthly',
      customId: 'u',
      returnUrl: 'http://l/ok',
      cancelUrl: 'http://l/no',
    });
    fake.delay(`GET /v1/billing/subscriptions/${created.id}`, 3000, 3);
    const started = Date.now();
    await expect(provider({ timeoutMs: 100, retries: 0 }).getSubscription(created.id)).rejects.toBeInstanceOf(
      ProviderError,
    );
    expect(Date.now() - started).toBeLessThan(2500);
    fake.clearFaults();
  });

  it('retries a read after 429 and 5xx, but never repeats a non-idempotent call', async () => {
    const paypal = provider();
    const created = await paypal.createSubscription({
      plan: 'monthly',
      customId: 'u',
      returnUrl: 'http://l/ok',
      cancelUrl: 'http://l/no',
    });
    fake.fail(`GET /v1/billing/subscriptions/${created.id}`, 429, 1);
    fake.fail(`GET /v1/billing/subscriptions/${created.id}`, 503, 1);
    expect(await paypal.getSubscription(created.id)).toMatchObject({ status: 'APPROVAL_PENDING' });
    fake.approve(created.id);
    fake.fail(`POST /v1/billing/subscriptions/${created.id}/suspend`, 503, 1);
    await expect(paypal.suspendSubscription(created.id, 'Cambio')).rejects.toMatchObject({ status: 503 });
    expect(fake.requests.filter((request) => request.url.endsWith(`${created.id}/suspend`))).toHaveLength(1);
  });

  it('acknowledges a webhook once stored, and applies it when PayPal answers again', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    const { subscriptionId } = (await api(cookie, '/api/payments/subscriptions', { plan: 'monthly' })).json() as {
      subscriptionId: string;
    };
    fake.approve(subscriptionId);
    fake.fail(`GET /v1/billing/subscriptions/${subscriptionId}`, 500, 3);
    const hook = fake.webhook('BILLING.SUBSCRIPTION.ACTIVATED', { id: subscriptionId, status: 'ACTIVE' });
    const response = await deliver(hook);
    expect(response.json()).toEqual({ received: true, outcome: 'stored' });
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis' });
    expect(
      (await t.db.select().from(paymentWebhookEvents).where(eq(paymentWebhookEvents.id, hook.id)))[0]!.processedAt,
    ).toBeNull();
    // the retry, once PayPal is back
    await t.app.services.payments.applyStoredWebhook(hook.id);
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium' });
  });
});

describe("the downgrade date is PayPal's next_billing_time", () => {
  it('keeps Premium until the date PayPal will charge next', async () => {
    const next = new Date(Date.now() + 31 * 86_400_000 + 3_600_000);
    next.setUTCMilliseconds(0);
    const { cookie, user, subscriptionId } = await premiumMember('monthly', next.toISOString());
    expect((await api(cookie, '/api/membership/downgrade')).statusCode).toBe(200);
    expect((await userRow(user.id)).terminationDate?.toISOString()).toBe(next.toISOString());
    expect(fake.subscriptions.get(subscriptionId)!.status).toBe('SUSPENDED');
  });
});

describe('#18.6 transaction statuses', () => {
  it('records a PENDING renewal as PENDIENTE, not FALLIDO, and keeps Premium', async () => {
    const { user, subscriptionId } = await premiumMember();
    fake.charge(subscriptionId, 'PENDING');
    await deliver(
      fake.webhook('PAYMENT.SALE.PENDING', { id: 'SALE-X', billing_agreement_id: subscriptionId, state: 'pending' }),
    );
    expect(await historyOf(user.id)).toEqual(['COMPLETADO', 'PENDIENTE']);
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN' });
  });
});

describe('#18.7 refunds and reversals', () => {
  it('end Premium when the payment is refunded, though the notice names only the sale', async () => {
    const { user, subscriptionId, sale } = await premiumMember();
    fake.refund(sale.id);
    const response = await deliver(
      fake.webhook('PAYMENT.SALE.REFUNDED', {
        id: 'REF-1',
        state: 'completed',
        sale_id: sale.id,
        parent_payment: 'PAYID-1',
      }),
    );
    expect(response.statusCode).toBe(200);
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'CANCELLED' });
    expect(await historyOf(user.id)).toEqual(['REEMBOLSADO']);
    expect(fake.subscriptions.get(subscriptionId)!.status).toBe('CANCELLED');
  });

  it('end Premium on a reversal (chargeback) too', async () => {
    const { user, sale } = await premiumMember();
    fake.refund(sale.id);
    await deliver(fake.webhook('PAYMENT.SALE.REVERSED', { id: sale.id, state: 'reversed' }));
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'CANCELLED' });
  });
});

describe('#18.8 orders', () => {
  const buy = async (description = 'Diplomado en cirugía de tejidos blandos') => {
    const { user } = await signedInAs(t, { type: 'Gratis' });
    const row = await userRow(user.id);
    const order = await t.app.services.payments.startOrder(row, {
      amountCents: 150000,
      description,
      returnUrl: `${testPublicUrl}/ok`,
      cancelUrl: `${testPublicUrl}/no`,
      reference: 'dip-1',
    });
    return { user: row, order };
  };
  const capture = (user: Awaited<ReturnType<typeof buy>>['user'], orderId: string) =>
    t.app.services.payments.captureVerifiedOrder(user, orderId, { amountCents: 150000, description: 'Diplomado' });
  const kinds = (orderId: string) =>
    orderEvents.filter((event) => event.orderId === orderId).map((event) => event.kind);

  it('cut the description to 127 characters and use payment_source.paypal.experience_context', async () => {
    const { order } = await buy(`Diplomado ${'avanzado '.repeat(30)}`);
    const sent = fake.requests.findLast((request) => request.url === '/v2/checkout/orders')!.body as Record<
      string,
      unknown
    >;
    expect(sent.application_context).toBeUndefined();
    expect(sent).toMatchObject({
      payment_source: { paypal: { experience_context: { return_url: `${testPublicUrl}/ok`, user_action: 'PAY_NOW' } } },
    });
    expect(fake.orders.has(order.id)).toBe(true);
  });

  it('enrol a member whose capture completes later, through the webhook', async () => {
    const { user, order } = await buy();
    fake.approveOrder(order.id, 'PENDING');
    await expect(capture(user, order.id)).rejects.toMatchObject({ code: 'PAYMENT_PENDING' });
    expect(kinds(order.id)).toEqual(['pending']);
    fake.settleCapture(order.id, 'COMPLETED');
    await deliver(
      fake.webhook('PAYMENT.CAPTURE.COMPLETED', {
        id: 'CAP',
        status: 'COMPLETED',
        supplementary_data: { related_ids: { order_id: order.id } },
      }),
    );
    expect(kinds(order.id)).toEqual(['pending', 'completed']);
    expect(await historyOf(user.id)).toEqual(['COMPLETADO']);
  });

  it('do not enrol a member whose pending capture is denied', async () => {
    const { user, order } = await buy();
    fake.approveOrder(order.id, 'PENDING');
    await expect(capture(user, order.id)).rejects.toMatchObject({ code: 'PAYMENT_PENDING' });
    fake.settleCapture(order.id, 'DECLINED');
    await deliver(
      fake.webhook('PAYMENT.CAPTURE.DENIED', {
        id: 'CAP',
        status: 'DECLINED',
        supplementary_data: { related_ids: { order_id: order.id } },
      }),
    );
    expect(kinds(order.id)).toEqual(['pending', 'denied']);
    expect(await historyOf(user.id)).toEqual(['FALLIDO']);
  });

  it('capture an order approved by a member whose browser never came back (CHECKOUT.ORDER.APPROVED)', async () => {
    const { order } = await buy();
    fake.approveOrder(order.id);
    await deliver(fake.webhook('CHECKOUT.ORDER.APPROVED', { id: order.id, status: 'APPROVED' }));
    expect(kinds(order.id)).toEqual(['completed']);
  });

  it('answer a declined instrument (PayPal 422) with a clear 402, not a 500', async () => {
    const { user, order } = await buy();
    fake.approveOrder(order.id, 'DECLINED');
    await expect(capture(user, order.id)).rejects.toMatchObject({ code: 'PAYMENT_DECLINED' });
  });

  it('refuse an order in another currency', async () => {
    const { user, order } = await buy();
    fake.approveOrder(order.id);
    (fake.orders.get(order.id)!.purchase_units[0] as { amount: { currency_code: string } }).amount.currency_code =
      'MXN';
    await expect(capture(user, order.id)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(fake.orders.get(order.id)!.capture).toBeNull();
  });
});

describe('#18.9 debug_id', () => {
  it('is logged with every failed call, without personal data', async () => {
    const lines: object[] = [];
    const paypal = provider({ log: { warn: (obj) => void lines.push(obj) } });
    const error = await paypal.suspendSubscription('I-NO-EXISTE', 'Cambio').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProviderError);
    expect(lines.at(-1)).toMatchObject({ status: 404, name: 'RESOURCE_NOT_FOUND', debugId: fake.debugIds.at(-1) });
    expect(JSON.stringify(lines)).not.toMatch(/@/);
  });
});

describe('sign-up payment through PayPal', () => {
  it('grants Premium only after PayPal confirms the subscription, and a downgrade suspends it', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    const start = await api(cookie, '/api/payments/subscriptions', { plan: 'monthly', returnTo: 'signup' });
    const { subscriptionId, approvalUrl } = start.json() as { subscriptionId: string; approvalUrl: string };
    expect(approvalUrl).toContain('ba_token=');
    const early = await api(cookie, `/api/payments/subscriptions/${subscriptionId}/confirm`);
    expect(early.json()).toEqual({ state: 'PENDIENTE', isPremium: false });
    fake.approve(subscriptionId);
    const confirmed = await api(cookie, `/api/payments/subscriptions/${subscriptionId}/confirm`);
    expect(confirmed.json()).toEqual({ state: 'ACTIVA', isPremium: true });
    expect(await userRow(user.id)).toMatchObject({
      type: 'Premium',
      paymentStatus: 'BIEN',
      annualPlan: false,
      subscriptionId,
    });
    expect((await api(cookie, '/api/membership/downgrade')).statusCode).toBe(200);
    expect(fake.subscriptions.get(subscriptionId)!.status).toBe('SUSPENDED');
  });

  it('answers the subscription-creation error when PayPal refuses', async () => {
    const { cookie } = await signedInAs(t, { type: 'Gratis' });
    fake.fail('POST /v1/billing/subscriptions', 422, 1);
    const response = await api(cookie, '/api/payments/subscriptions', { plan: 'annual' });
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toBe('No se pudo crear la suscripción');
  });
});
