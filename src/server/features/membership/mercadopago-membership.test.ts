import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs, testPassword } from '#server/testing/factories.ts';
import { paymentSubscriptions, users } from '#server/db/schema/index.ts';
import { startPayPalFake, type PayPalFake } from '#server/services/payments/paypal-fake.testing.ts';
import { startMercadoPagoFake, type MercadoPagoFake } from '#server/services/payments/simulated-mercadopago.ts';
import { createMercadoPagoProvider } from '#server/services/payments/mercadopago-provider.ts';
import { createMercadoPagoCardSubscriptions } from '#server/features/payments/mercadopago-card-subscriptions.ts';

/**
 * PAYMENTS_PROVIDERS=paypal,mercadopago against both strict fakes: a member subscribed by card in pesos is
 * downgraded, reactivated, ended and deleted at Mercado Pago, a PayPal member at PayPal, never the other way.
 */
let paypal: PayPalFake;
let mercadoPago: MercadoPagoFake;
let t: TestApp;
const accessToken = 'TEST-0000-ficha';
const webhookSecret = 'secreto-de-notificaciones';

beforeAll(async () => {
  paypal = await startPayPalFake({
    clientId: 'cliente',
    clientSecret: 'secreto',
    planIds: { 'P-MENSUAL': 'monthly', 'P-ANUAL': 'annual' },
    webhookId: 'WH-ID',
  });
  mercadoPago = await startMercadoPagoFake({ accessToken, webhookSecret });
  t = await createTestApp({
    paymentsProvider: 'paypal',
    paymentsProviders: ['paypal', 'mercadopago'],
    paypal: {
      apiUrl: paypal.url,
      clientId: 'cliente',
      clientSecret: 'secreto',
      planIds: { monthly: 'P-MENSUAL', annual: 'P-ANUAL' },
      webhookId: 'WH-ID',
    },
    mercadopago: { apiUrl: mercadoPago.url, accessToken, webhookSecret },
  });
}, 180_000);
afterAll(async () => {
  await t.close();
  await paypal.close();
  await mercadoPago.close();
});

const userRow = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0]!;
const subscriptionRow = async (id: string) =>
  (await t.db.select().from(paymentSubscriptions).where(eq(paymentSubscriptions.providerSubscriptionId, id)))[0]!;
const api = (cookie: string, url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: { cookie, origin: testPublicUrl }, payload });
const paypalAskedAbout = (id: string) => paypal.requests.some((request) => request.url.includes(id));
const mercadoPagoCalls = () => mercadoPago.requests.length;
const preapprovalStatus = (id: string) => mercadoPago.preapprovals.get(id)!.status;

/** A member whose card subscription in pesos Mercado Pago authorized and charged: Premium through it. */
async function premiumInPesos() {
  const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
  const created = await createMercadoPagoProvider({
    apiUrl: mercadoPago.url,
    accessToken,
    webhookSecret,
  }).createPreapproval({
    reason: 'CxVet Premium mensual',
    amountCents: 19_900,
    frequencyMonths: 1,
    payerEmail: user.email,
    externalReference: user.id,
    backUrl: `${testPublicUrl}/perfil`,
    idempotencyKey: crypto.randomUUID(),
  });
  mercadoPago.authorize(created.id);
  await t.db.insert(paymentSubscriptions).values({
    userId: user.id,
    provider: 'mercadopago',
    providerSubscriptionId: created.id,
    plan: 'monthly',
    state: 'ACTIVA',
  });
  await t.app.services.membership.activatePremium(user.id, {
    subscriptionId: created.id,
    plan: 'monthly',
    paidAt: new Date(),
  });
  return { cookie, user, subscriptionId: created.id };
}

async function premiumAtPayPal() {
  const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
  const start = await api(cookie, '/api/payments/subscriptions', { plan: 'monthly', returnTo: 'profile' });
  expect(start.statusCode).toBe(200);
  const { subscriptionId } = start.json() as { subscriptionId: string };
  paypal.approve(subscriptionId);
  const hook = paypal.webhook('BILLING.SUBSCRIPTION.ACTIVATED', { id: subscriptionId, status: 'ACTIVE' });
  await t.app.inject({
    method: 'POST',
    url: '/api/payments/webhooks/paypal',
    headers: hook.headers,
    payload: hook.rawBody,
  });
  await t.app.services.jobs.runDue();
  expect(await userRow(user.id)).toMatchObject({ type: 'Premium', subscriptionId });
  return { cookie, user, subscriptionId };
}

describe('a card subscription in pesos is handled at Mercado Pago', () => {
  it('downgrade pauses it there and ends the benefits on the next charge date Mercado Pago reports', async () => {
    const { cookie, user, subscriptionId } = await premiumInPesos();
    const nextCharge = mercadoPago.preapprovals.get(subscriptionId)!.next_payment_date!;
    expect((await api(cookie, '/api/membership/downgrade')).statusCode).toBe(200);
    expect(preapprovalStatus(subscriptionId)).toBe('paused');
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ state: 'SUSPENDIDA' });
    expect(await userRow(user.id)).toMatchObject({
      type: 'Gratis',
      paymentStatus: 'POR_TERMINAR',
      terminationDate: new Date(nextCharge),
    });

    expect((await api(cookie, '/api/membership/reactivate')).statusCode).toBe(200);
    expect(preapprovalStatus(subscriptionId)).toBe('authorized');
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ state: 'ACTIVA' });
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN' });
    expect(paypalAskedAbout(subscriptionId)).toBe(false);
  });

  it('stays Premium when a reconcile that read the pause writes after the reactivation (decision 062)', async () => {
    const { cookie, user, subscriptionId } = await premiumInPesos();
    expect((await api(cookie, '/api/membership/downgrade')).statusCode).toBe(200);
    // a notification's reconcile reads the paused preapproval, then waits while the member reactivates
    const real = createMercadoPagoProvider({ apiUrl: mercadoPago.url, accessToken, webhookSecret });
    let read!: () => void;
    const wasRead = new Promise<void>((done) => (read = done));
    let release!: () => void;
    const released = new Promise<void>((done) => (release = done));
    const cards = createMercadoPagoCardSubscriptions({
      db: t.db,
      provider: {
        ...real,
        async getPreapproval(id) {
          const preapproval = await real.getPreapproval(id);
          read();
          await released;
          return preapproval;
        },
      },
      membership: t.app.services.membership,
      prices: { mxnPlanPriceCents: async () => 19_900 },
      publicUrl: testPublicUrl,
      log: { warn() {}, error() {} },
    });
    const stale = cards.reconcilePreapproval(subscriptionId);
    await wasRead;
    expect((await api(cookie, '/api/membership/reactivate')).statusCode).toBe(200);
    release();
    await stale;
    expect(preapprovalStatus(subscriptionId)).toBe('authorized');
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ state: 'ACTIVA' });
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN', terminationDate: null });
  });

  it('cancels it there when the paid period is over', async () => {
    const { cookie, user, subscriptionId } = await premiumInPesos();
    expect((await api(cookie, '/api/membership/downgrade')).statusCode).toBe(200);
    await t.db
      .update(users)
      .set({ terminationDate: new Date(Date.now() - 1000) })
      .where(eq(users.id, user.id));
    expect(await t.app.services.membership.applyDueChanges(user.id)).toBe(true);
    expect(preapprovalStatus(subscriptionId)).toBe('cancelled');
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ state: 'CANCELADA' });
  });

  it('counts one cancelled at Mercado Pago as a completed downgrade, and refuses to reactivate it', async () => {
    const { cookie, user, subscriptionId } = await premiumInPesos();
    mercadoPago.setPreapprovalStatus(subscriptionId, 'cancelled');
    expect((await api(cookie, '/api/membership/downgrade')).statusCode).toBe(200);
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ state: 'CANCELADA' });
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'POR_TERMINAR' });
    const again = await api(cookie, '/api/membership/reactivate');
    expect(again.json()).toMatchObject({ code: 'MEMBERSHIP_CHANGE_NOT_ALLOWED' });
    expect(preapprovalStatus(subscriptionId)).toBe('cancelled');
  });

  it('refuses the downgrade and changes nothing while Mercado Pago is down', async () => {
    const { cookie, user, subscriptionId } = await premiumInPesos();
    // every attempt of the adapter (one and its two retries) answered 500
    mercadoPago.fail(`PUT /preapproval/${subscriptionId}`, 500, 3);
    const response = await api(cookie, '/api/membership/downgrade');
    expect(response.json()).toMatchObject({ code: 'SUBSCRIPTION_UNMAPPED_ERROR' });
    expect(preapprovalStatus(subscriptionId)).toBe('authorized');
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN' });
  });

  it('an account deletion cancels it there; a PayPal member’s deletion never reaches Mercado Pago', async () => {
    const inPesos = await premiumInPesos();
    const deleted = await api(inPesos.cookie, '/api/privacy/delete-account', {
      password: testPassword,
      certificates: 'keep',
    });
    expect(deleted.statusCode).toBe(204);
    expect(preapprovalStatus(inPesos.subscriptionId)).toBe('cancelled');
    expect(paypalAskedAbout(inPesos.subscriptionId)).toBe(false);

    const inDollars = await premiumAtPayPal();
    const before = mercadoPagoCalls();
    expect((await api(inDollars.cookie, '/api/membership/downgrade')).statusCode).toBe(200);
    expect(
      (await api(inDollars.cookie, '/api/privacy/delete-account', { password: testPassword, certificates: 'keep' }))
        .statusCode,
    ).toBe(204);
    expect(paypal.subscriptions.get(inDollars.subscriptionId)!.status).toBe('CANCELLED');
    expect(mercadoPagoCalls()).toBe(before);
  });
});
