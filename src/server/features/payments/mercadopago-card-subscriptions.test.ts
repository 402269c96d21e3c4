import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import type { SignedNotification } from '#server/services/payments/simulated-mercadopago-controls.ts';
import { deliverMercadoPago } from './mercadopago.testing.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { mailOutbox, paymentSubscriptions, payments, planPrices, users } from '#server/db/schema/index.ts';
import { startMercadoPagoFake, type MercadoPagoFake } from '#server/services/payments/simulated-mercadopago.ts';

/**
 * Card subscriptions in pesos against the strict fake Mercado Pago: Premium only from a charge read back
 * approved for the amount we asked for, and every later state through membership's rules.
 */
let fake: MercadoPagoFake;
let t: TestApp;
const accessToken = 'TEST-tarjeta-pesos';
const webhookSecret = 'secreto-de-suscripciones';
const monthlyMxn = 19_900;

beforeAll(async () => {
  fake = await startMercadoPagoFake({ accessToken, webhookSecret });
  t = await createTestApp({
    paymentsProviders: ['simulado'],
    mercadopago: { apiUrl: fake.url, accessToken, webhookSecret },
  });
  await t.db.insert(planPrices).values([
    { plan: 'monthly', currency: 'MXN', amountCents: monthlyMxn },
    { plan: 'annual', currency: 'MXN', amountCents: 199_900 },
  ]);
}, 180_000);
afterAll(async () => {
  await t.close();
  await fake.close();
});

const userRow = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0]!;
const rowOf = async (id: string) =>
  (await t.db.select().from(paymentSubscriptions).where(eq(paymentSubscriptions.providerSubscriptionId, id)))[0]!;
const post = (cookie: string, url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: { cookie, origin: testPublicUrl }, payload });

const deliver = (hook: SignedNotification) => deliverMercadoPago(t, hook);

/** A Basic member starts a monthly card subscription in pesos; returns the preapproval id. */
async function startCheckout(plan: 'monthly' | 'annual' = 'monthly') {
  const member = await signedInAs(t, { type: 'Gratis' });
  const response = await post(member.cookie, '/api/payments/mercadopago/subscriptions', { plan, returnTo: 'profile' });
  expect(response.statusCode, response.body).toBe(200);
  const { subscriptionId, approvalUrl } = response.json() as { subscriptionId: string; approvalUrl: string };
  return { ...member, preapprovalId: subscriptionId, approvalUrl };
}

/** The payer authorizes the card at Mercado Pago and its notification about the first charge arrives. */
async function authorizeAndNotify(preapprovalId: string, outcome: 'approved' | 'rejected' = 'approved') {
  const charge = fake.authorize(preapprovalId, outcome);
  const response = await deliver(fake.notification('subscription_authorized_payment', charge.authorizedPaymentId));
  expect(response.statusCode).toBe(200);
  return charge;
}

describe('starting a card subscription in pesos', () => {
  it('creates a pending preapproval of the plan price in MXN and sends the member to its init_point; nothing is granted yet', async () => {
    const { user, cookie, preapprovalId, approvalUrl } = await startCheckout('annual');
    const pre = fake.preapprovals.get(preapprovalId)!;
    expect(pre.status).toBe('pending');
    expect(pre.auto_recurring).toMatchObject({
      transaction_amount: 1999,
      currency_id: 'MXN',
      frequency: 12,
      frequency_type: 'months',
    });
    expect(pre.external_reference).toBe(user.id);
    expect(new URL(pre.back_url).pathname).toBe('/perfil');
    expect(approvalUrl).toContain(`preapproval_id=${preapprovalId}`);
    expect(await rowOf(preapprovalId)).toMatchObject({
      userId: user.id,
      provider: 'mercadopago',
      plan: 'annual',
      state: 'PENDIENTE',
      amountCents: 199_900,
      currency: 'MXN',
    });
    // back from the hosted page before authorizing: still Basic
    const back = await post(cookie, '/api/payments/mercadopago/subscriptions/confirm');
    expect(back.json()).toEqual({ state: 'PENDIENTE', isPremium: false });
    expect((await userRow(user.id)).type).toBe('Gratis');
  });

  it('refuses a plan without a price in pesos, a Premium member and a guest', async () => {
    await t.db.delete(planPrices).where(and(eq(planPrices.plan, 'annual'), eq(planPrices.currency, 'MXN')));
    try {
      const basic = await signedInAs(t, { type: 'Gratis' });
      const unpriced = await post(basic.cookie, '/api/payments/mercadopago/subscriptions', { plan: 'annual' });
      expect(unpriced.statusCode).toBe(403);
      const premium = await signedInAs(t, { type: 'Premium' });
      const again = await post(premium.cookie, '/api/payments/mercadopago/subscriptions', { plan: 'monthly' });
      expect(again.statusCode).toBe(409);
      const guest = await t.app.inject({
        method: 'POST',
        url: '/api/payments/mercadopago/subscriptions',
        headers: { origin: testPublicUrl },
        payload: { plan: 'monthly' },
      });
      expect(guest.statusCode).toBe(401);
    } finally {
      await t.db.insert(planPrices).values({ plan: 'annual', currency: 'MXN', amountCents: 199_900 });
    }
  });

  it('tells the member to try again later when Mercado Pago is down, and records nothing', async () => {
    const member = await signedInAs(t, { type: 'Gratis' });
    fake.fail('POST /preapproval', 503, 3);
    const response = await post(member.cookie, '/api/payments/mercadopago/subscriptions', { plan: 'monthly' });
    expect(response.statusCode).toBe(503);
    expect(
      await t.db.select().from(paymentSubscriptions).where(eq(paymentSubscriptions.userId, member.user.id)),
    ).toEqual([]);
  });

  it('two checkouts at once leave one preapproval that can charge', async () => {
    const member = await signedInAs(t, { type: 'Gratis' });
    const [a, b] = await Promise.all([
      post(member.cookie, '/api/payments/mercadopago/subscriptions', { plan: 'monthly' }),
      post(member.cookie, '/api/payments/mercadopago/subscriptions', { plan: 'monthly' }),
    ]);
    // the later one wins (cancelling the first) or is refused while the first is being created
    expect([a.statusCode, b.statusCode]).toContain(200);
    for (const response of [a, b]) expect([200, 409]).toContain(response.statusCode);
    const live = await t.db
      .select()
      .from(paymentSubscriptions)
      .where(and(eq(paymentSubscriptions.userId, member.user.id), eq(paymentSubscriptions.state, 'PENDIENTE')));
    expect(live.filter((row) => !row.supersededAt)).toHaveLength(1);
    const mine = [...fake.preapprovals.values()].filter((pre) => pre.external_reference === member.user.id);
    expect(mine.filter((pre) => pre.status === 'pending')).toHaveLength(1);
  });

  it('a second checkout cancels the first one never authorized, so it can never charge', async () => {
    const first = await startCheckout();
    const second = await post(first.cookie, '/api/payments/mercadopago/subscriptions', { plan: 'monthly' });
    expect(second.statusCode).toBe(200);
    expect(fake.preapprovals.get(first.preapprovalId)!.status).toBe('cancelled');
    expect((await rowOf(first.preapprovalId)).state).toBe('CANCELADA');
  });
});

describe('what Mercado Pago reports afterwards', () => {
  it('an approved first charge makes the member Premium, with the next charge date Mercado Pago reports', async () => {
    const { user, preapprovalId } = await startCheckout();
    const charge = await authorizeAndNotify(preapprovalId);
    const member = await userRow(user.id);
    expect(member).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN', subscriptionId: preapprovalId });
    expect(member.annualPlan).toBe(false);
    expect((await rowOf(preapprovalId)).nextBillingAt?.toISOString()).toBe(
      new Date(fake.preapprovals.get(preapprovalId)!.next_payment_date!).toISOString(),
    );
    const [history] = await t.db
      .select()
      .from(payments)
      .where(eq(payments.providerPaymentId, `mercadopago:${charge.paymentId}`));
    expect(history).toMatchObject({ result: 'COMPLETADO', amountCents: monthlyMxn, currency: 'MXN' });
    // the upgrade e-mail went once, whatever Mercado Pago repeats
    const mails = async () => (await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email))).length;
    const before = await mails();
    const repeat = fake.notification('subscription_authorized_payment', charge.authorizedPaymentId);
    await deliver(repeat);
    expect((await deliver(repeat)).json()).toMatchObject({ outcome: 'duplicate' });
    await deliver(fake.notification('subscription_preapproval', preapprovalId));
    expect(await mails()).toBe(before);
  });

  it('a notification about one charge reads that charge only, not every charge of the subscription', async () => {
    const { preapprovalId } = await startCheckout();
    fake.authorize(preapprovalId, 'approved');
    for (let month = 0; month < 3; month++) fake.charge(preapprovalId, 'approved');
    const latest = fake.charge(preapprovalId, 'approved');
    const before = fake.requests.length;
    await deliver(fake.notification('subscription_authorized_payment', latest.authorizedPaymentId));
    const calls = fake.requests.slice(before).map((request) => `${request.method} ${request.url.split('?')[0]}`);
    expect(calls.filter((call) => call.startsWith('GET /authorized_payments/search'))).toEqual([]);
    expect(calls.filter((call) => call.startsWith('GET /v1/payments/'))).toEqual([
      `GET /v1/payments/${latest.paymentId}`,
    ]);
    expect(await t.db.select().from(payments).where(eq(payments.providerSubscriptionId, preapprovalId))).toHaveLength(
      1,
    );
    expect((await rowOf(preapprovalId)).state).toBe('ACTIVA');
  });

  it('the return from Mercado Pago reads the charges back when no notification came', async () => {
    const { user, cookie, preapprovalId } = await startCheckout();
    fake.authorize(preapprovalId);
    const back = await post(cookie, '/api/payments/mercadopago/subscriptions/confirm');
    expect(back.json()).toEqual({ state: 'ACTIVA', isPremium: true });
    expect((await userRow(user.id)).subscriptionId).toBe(preapprovalId);
  });

  it('a rejected first charge is FALLIDO: the member stays Basic and gets the e-mail', async () => {
    const { user, preapprovalId } = await startCheckout();
    await authorizeAndNotify(preapprovalId, 'rejected');
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'FALLIDO' });
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email))).toHaveLength(1);
  });

  it('a charge of another amount than we asked for grants nothing', async () => {
    const { user, preapprovalId } = await startCheckout();
    // changed at Mercado Pago after we created it
    fake.preapprovals.get(preapprovalId)!.auto_recurring.transaction_amount = 1;
    await authorizeAndNotify(preapprovalId);
    expect((await userRow(user.id)).type).toBe('Gratis');
  });

  it('a preapproval paused at Mercado Pago keeps the paid time, then ends', async () => {
    const { user, preapprovalId } = await startCheckout();
    await authorizeAndNotify(preapprovalId);
    const periodEnd = fake.preapprovals.get(preapprovalId)!.next_payment_date!;
    fake.setPreapprovalStatus(preapprovalId, 'paused');
    await deliver(fake.notification('subscription_preapproval', preapprovalId));
    const member = await userRow(user.id);
    expect(member.paymentStatus).toBe('POR_TERMINAR');
    expect(member.terminationDate?.toISOString()).toBe(new Date(periodEnd).toISOString());
    expect((await rowOf(preapprovalId)).state).toBe('SUSPENDIDA');
  });

  it('a refunded charge ends Premium now and cancels the preapproval so it never charges again', async () => {
    const { user, preapprovalId } = await startCheckout();
    const charge = await authorizeAndNotify(preapprovalId);
    fake.refund(charge.paymentId);
    await deliver(fake.notification('payment', charge.paymentId));
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'CANCELLED' });
    expect(fake.preapprovals.get(preapprovalId)!.status).toBe('cancelled');
    const [history] = await t.db
      .select()
      .from(payments)
      .where(eq(payments.providerPaymentId, `mercadopago:${charge.paymentId}`));
    expect(history!.result).toBe('REEMBOLSADO');
  });

  it('a charge refunded in part is Reembolso parcial in the history, and the member stays Premium', async () => {
    const { user, preapprovalId } = await startCheckout();
    const charge = await authorizeAndNotify(preapprovalId);
    fake.refundPart(charge.paymentId, 50);
    await deliver(fake.notification('payment', charge.paymentId));
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium' });
    expect(fake.preapprovals.get(preapprovalId)!.status).toBe('authorized');
    const [history] = await t.db
      .select()
      .from(payments)
      .where(eq(payments.providerPaymentId, `mercadopago:${charge.paymentId}`));
    expect(history).toMatchObject({ result: 'REEMBOLSO_PARCIAL', amountCents: monthlyMxn });
  });

  it('a forged notification changes nothing', async () => {
    const { user, preapprovalId } = await startCheckout();
    const charge = fake.authorize(preapprovalId);
    const hook = fake.notification('subscription_authorized_payment', charge.authorizedPaymentId);
    const forged = await deliver({ ...hook, headers: { ...hook.headers, 'x-signature': 'ts=1,v1=00' } });
    expect(forged.statusCode).toBe(401);
    expect((await userRow(user.id)).type).toBe('Gratis');
  });
});
