import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { paymentWebhookEvents, users } from '#server/db/schema/index.ts';
import { createPayPalProvider } from './paypal-provider.ts';

type Sub = { id: string; status: string; plan_id: string; custom_id: string; billing_info: Record<string, unknown>; transactions: object[] };

/** A local stand-in of the PayPal REST endpoints the provider uses. */
async function startPayPalStandIn() {
  const app = Fastify();
  const subscriptions = new Map<string, Sub>();
  const orders = new Map<string, Record<string, unknown>>();
  const verifyRequests: Record<string, unknown>[] = [];
  let counter = 0;
  const authorized = (header: unknown) => header === 'Bearer token-de-prueba';

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, body, done) => done(null, body));
  app.post('/v1/oauth2/token', async (request, reply) => {
    const expected = `Basic ${Buffer.from('cliente:secreto').toString('base64')}`;
    if (request.headers.authorization !== expected || request.body !== 'grant_type=client_credentials') return reply.status(401).send({ error: 'invalid_client' });
    return { access_token: 'token-de-prueba', token_type: 'Bearer', expires_in: 32400 };
  });
  app.addHook('preHandler', async (request, reply) => {
    if (request.url !== '/v1/oauth2/token' && !authorized(request.headers.authorization)) return reply.status(401).send({ name: 'AUTHENTICATION_FAILURE' });
  });
  app.post('/v1/billing/subscriptions', async (request) => {
    const body = request.body as { plan_id: string; custom_id: string; application_context: { return_url: string } };
    const id = `I-PAYPAL${++counter}`;
    subscriptions.set(id, { id, status: 'APPROVAL_PENDING', plan_id: body.plan_id, custom_id: body.custom_id, billing_info: {}, transactions: [] });
    return { id, status: 'APPROVAL_PENDING', links: [{ rel: 'approve', href: `https://www.sandbox.paypal.com/webapps/billing/subscriptions?ba_token=BA-${id}`, method: 'GET' }, { rel: 'self', href: 'x' }] };
  });
  app.get('/v1/billing/subscriptions/:id', async (request, reply) => {
    const sub = subscriptions.get((request.params as { id: string }).id);
    if (!sub) return reply.status(404).send({ name: 'RESOURCE_NOT_FOUND' });
    const { transactions: _t, ...record } = sub;
    return record;
  });
  app.get('/v1/billing/subscriptions/:id/transactions', async (request) => ({ transactions: subscriptions.get((request.params as { id: string }).id)?.transactions ?? [] }));
  for (const [action, status] of [['suspend', 'SUSPENDED'], ['activate', 'ACTIVE'], ['cancel', 'CANCELLED']] as const) {
    app.post(`/v1/billing/subscriptions/:id/${action}`, async (request, reply) => {
      const sub = subscriptions.get((request.params as { id: string }).id);
      if (!sub) return reply.status(404).send({});
      sub.status = status;
      return reply.status(204).send();
    });
  }
  app.post('/v2/checkout/orders', async (request) => {
    const body = request.body as { purchase_units: { amount: { value: string }; custom_id: string }[] };
    const id = `ORDER-${++counter}`;
    orders.set(id, { id, status: 'CREATED', purchase_units: body.purchase_units });
    return { id, status: 'CREATED', links: [{ rel: 'payer-action', href: `https://www.sandbox.paypal.com/checkoutnow?token=${id}` }] };
  });
  app.get('/v2/checkout/orders/:id', async (request, reply) => orders.get((request.params as { id: string }).id) ?? reply.status(404).send({}));
  app.post('/v2/checkout/orders/:id/capture', async (request) => {
    const order = orders.get((request.params as { id: string }).id)!;
    order.status = 'COMPLETED';
    const units = order.purchase_units as Record<string, unknown>[];
    units[0]!.payments = { captures: [{ id: 'CAPTURE-1', status: 'COMPLETED' }] };
    return order;
  });
  app.post('/v1/notifications/verify-webhook-signature', async (request) => {
    const body = request.body as Record<string, unknown>;
    verifyRequests.push(body);
    const ok = body.transmission_sig === 'firma-valida' && body.webhook_id === 'WH-ID' && typeof body.webhook_event === 'object';
    return { verification_status: ok ? 'SUCCESS' : 'FAILURE' };
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    verifyRequests,
    subscriptions,
    /** What PayPal does when the buyer approves and the first payment clears. */
    approve(id: string, amount = '9.99') {
      const sub = subscriptions.get(id)!;
      const time = new Date().toISOString();
      sub.status = 'ACTIVE';
      sub.billing_info = { last_payment: { amount: { currency_code: 'USD', value: amount }, time }, failed_payments_count: 0 };
      sub.transactions.push({ id: `SALE-${id}`, status: 'COMPLETED', time, amount_with_breakdown: { gross_amount: { currency_code: 'USD', value: amount } } });
    },
    close: () => app.close(),
  };
}

let standIn: Awaited<ReturnType<typeof startPayPalStandIn>>;
let t: TestApp;
const planIds = { monthly: 'P-MENSUAL', annual: 'P-ANUAL' };

beforeAll(async () => {
  standIn = await startPayPalStandIn();
  t = await createTestApp({
    paymentsProvider: 'paypal',
    paypal: { apiUrl: standIn.url, clientId: 'cliente', clientSecret: 'secreto', planIds, webhookId: 'WH-ID' },
  });
});
afterAll(async () => {
  await t.close();
  await standIn.close();
});

const paypalHeaders = (signature: string) => ({
  'content-type': 'application/json',
  'paypal-auth-algo': 'SHA256withRSA',
  'paypal-cert-url': 'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-1',
  'paypal-transmission-id': 'TX-1',
  'paypal-transmission-sig': signature,
  'paypal-transmission-time': new Date().toISOString(),
});

describe('the PayPal provider', () => {
  it('creates a subscription with the plan id and our user as custom_id, and reads it back', async () => {
    const provider = createPayPalProvider({ apiUrl: standIn.url, clientId: 'cliente', clientSecret: 'secreto', planIds, webhookId: 'WH-ID' });
    const created = await provider.createSubscription({ plan: 'annual', customId: 'user-1', returnUrl: 'http://localhost/ok', cancelUrl: 'http://localhost/no' });
    expect(created.approvalUrl).toContain('sandbox.paypal.com');
    expect(standIn.subscriptions.get(created.id)).toMatchObject({ plan_id: 'P-ANUAL', custom_id: 'user-1' });
    standIn.approve(created.id, '99.90');
    expect(await provider.getSubscription(created.id)).toMatchObject({ status: 'ACTIVE', plan: 'annual', customId: 'user-1', lastPayment: { amountCents: 9990 } });
    expect(await provider.listTransactions(created.id)).toMatchObject([{ result: 'COMPLETADO', amountCents: 9990, currency: 'USD' }]);
    expect(await provider.getSubscription('I-NO-EXISTE')).toBeNull();
  });

  it('creates, reads and captures an order', async () => {
    const provider = createPayPalProvider({ apiUrl: standIn.url, clientId: 'cliente', clientSecret: 'secreto', planIds, webhookId: 'WH-ID' });
    const order = await provider.createOrder({ amountCents: 150000, description: 'Diplomado', customId: 'user-2', returnUrl: 'http://localhost/ok', cancelUrl: 'http://localhost/no' });
    expect(order.approvalUrl).toContain('checkoutnow');
    expect(await provider.getOrder(order.id)).toMatchObject({ status: 'CREATED', amountCents: 150000, customId: 'user-2' });
    expect(await provider.captureOrder(order.id)).toMatchObject({ status: 'COMPLETED', captureId: 'CAPTURE-1' });
  });

  it('verifies a webhook through verify-webhook-signature with our webhook id and the event itself', async () => {
    const provider = createPayPalProvider({ apiUrl: standIn.url, clientId: 'cliente', clientSecret: 'secreto', planIds, webhookId: 'WH-ID' });
    const rawBody = JSON.stringify({ id: 'WH-EV-0', event_type: 'BILLING.SUBSCRIPTION.ACTIVATED', resource: { id: 'I-1' } });
    const event = await provider.verifyWebhook({ headers: paypalHeaders('firma-valida'), rawBody });
    expect(event).toMatchObject({ id: 'WH-EV-0', target: { kind: 'subscription', id: 'I-1' } });
    expect(standIn.verifyRequests.at(-1)).toMatchObject({ webhook_id: 'WH-ID', transmission_id: 'TX-1', webhook_event: { id: 'WH-EV-0' } });
    expect(await provider.verifyWebhook({ headers: paypalHeaders('firma-falsa'), rawBody })).toBeNull();
    expect(await provider.verifyWebhook({ headers: { 'content-type': 'application/json' }, rawBody })).toBeNull();
  });
});

describe('sign-up payment through PayPal', () => {
  it('grants Premium only after PayPal confirms the subscription, from a verified webhook', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    const start = await t.app.inject({ method: 'POST', url: '/api/payments/subscriptions', headers: { cookie, origin: testPublicUrl }, payload: { plan: 'monthly', returnTo: 'signup' } });
    expect(start.statusCode).toBe(200);
    const { subscriptionId, approvalUrl } = start.json();
    expect(approvalUrl).toContain('ba_token=');
    expect(standIn.subscriptions.get(subscriptionId)!.custom_id).toBe(user.id);

    // the browser comes back claiming success before PayPal has the payment
    const early = await t.app.inject({ method: 'POST', url: `/api/payments/subscriptions/${subscriptionId}/confirm`, headers: { cookie, origin: testPublicUrl } });
    expect(early.json()).toEqual({ state: 'PENDIENTE', isPremium: false });

    standIn.approve(subscriptionId);
    const rawBody = JSON.stringify({ id: 'WH-EV-1', event_type: 'BILLING.SUBSCRIPTION.ACTIVATED', resource_type: 'subscription', resource: { id: subscriptionId, status: 'ACTIVE' } });
    const forged = await t.app.inject({ method: 'POST', url: '/api/payments/webhooks/paypal', headers: paypalHeaders('firma-falsa'), payload: rawBody });
    expect(forged.statusCode).toBe(401);
    expect(await t.db.select().from(paymentWebhookEvents).where(eq(paymentWebhookEvents.id, 'WH-EV-1'))).toHaveLength(0);

    const genuine = await t.app.inject({ method: 'POST', url: '/api/payments/webhooks/paypal', headers: paypalHeaders('firma-valida'), payload: rawBody });
    expect(genuine.statusCode).toBe(200);
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN', annualPlan: false, subscriptionId });

    const downgrade = await t.app.inject({ method: 'POST', url: '/api/membership/downgrade', headers: { cookie, origin: testPublicUrl } });
    expect(downgrade.statusCode).toBe(200);
    expect(standIn.subscriptions.get(subscriptionId)!.status).toBe('SUSPENDED');
  });

  it('answers the subscription-creation error when PayPal refuses', async () => {
    const { cookie } = await signedInAs(t, { type: 'Gratis' });
    await standIn.close().catch(() => {});
    const response = await t.app.inject({ method: 'POST', url: '/api/payments/subscriptions', headers: { cookie, origin: testPublicUrl }, payload: { plan: 'annual' } });
    expect(response.statusCode).toBe(502);
    expect(response.json().message).toBe('No se pudo crear la suscripción');
  });
});
