import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '#server/testing/test-app.ts';
import type { SignedNotification } from '#server/services/payments/simulated-mercadopago-controls.ts';
import { deliverMercadoPago } from './mercadopago.testing.ts';
import { signedInAs } from '#server/testing/factories.ts';
import {
  diplomaTransactions,
  diplomaUsers,
  paymentOrders,
  paymentWebhookEvents,
  payments,
} from '#server/db/schema/index.ts';
import { startMercadoPagoFake, type MercadoPagoFake } from '#server/services/payments/simulated-mercadopago.ts';
import { createDiploma, memberRequest } from '#server/features/diplomas/diplomas.testing.ts';

let fake: MercadoPagoFake;
let t: TestApp;
const accessToken = 'TEST-cxvet-token';
const webhookSecret = 'secreto-de-notificaciones';

beforeAll(async () => {
  fake = await startMercadoPagoFake({ accessToken, webhookSecret });
  t = await createTestApp({
    paymentsProviders: ['simulado'],
    mercadopago: { apiUrl: fake.url, accessToken, webhookSecret },
  });
}, 180_000);
afterAll(async () => {
  await t.close();
  await fake.close();
});

const deliver = (hook: SignedNotification) => deliverMercadoPago(t, hook);

const enrolled = async (diplomaId: string, userId: string) =>
  (
    await t.db
      .select()
      .from(diplomaUsers)
      .where(and(eq(diplomaUsers.diplomaId, diplomaId), eq(diplomaUsers.userId, userId)))
  ).length > 0;
const transactionOf = async (paymentId: string) =>
  (await t.db.select().from(diplomaTransactions).where(eq(diplomaTransactions.providerOrderId, paymentId)))[0];
const orderOf = async (paymentId: string) =>
  (await t.db.select().from(paymentOrders).where(eq(paymentOrders.providerOrderId, paymentId)))[0];

/** A Premium member and a diploma priced in pesos; the member starts paying it with `method`. */
async function startPaying(method: 'oxxo' | 'clabe' = 'oxxo') {
  const { cookie, user } = await signedInAs(t, { type: 'Premium' });
  const diploma = await createDiploma(t, { values: { costCents: 14_990, costMxnCents: 249_900 } });
  const response = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/pesos`, { method });
  expect(response.statusCode).toBe(200);
  const payment = response.json() as {
    paymentId: string;
    amountCents: number;
    expiresAt: string;
    instructionsUrl: string | null;
    clabe: string | null;
  };
  return { cookie, user, diploma, payment };
}

describe('a diploma paid at OXXO or by SPEI (Mercado Pago)', () => {
  it('creates a pending payment of the MXN price and shows the voucher with its expiry; no access yet', async () => {
    const { cookie, user, diploma, payment } = await startPaying('oxxo');
    expect(payment.amountCents).toBe(249_900);
    expect(payment.instructionsUrl).toMatch(/\/voucher\//);
    expect(new Date(payment.expiresAt).getTime()).toBeGreaterThan(Date.now() + 2 * 86_400_000);
    const created = fake.payments.get(payment.paymentId)!;
    expect(created).toMatchObject({ payment_method_id: 'oxxo', transaction_amount: 2499, payer_email: user.email });
    expect(created.notification_url).toMatch(/\/api\/payments\/webhooks\/mercadopago$/);
    expect(await enrolled(diploma.id, user.id)).toBe(false);
    expect(await transactionOf(payment.paymentId)).toMatchObject({ currency: 'MXN', status: 'PENDING' });
    const pending = await memberRequest(t, cookie, 'GET', '/api/profile/payments/pending');
    expect(pending.json().payments).toEqual([
      expect.objectContaining({ paymentId: payment.paymentId, amountCents: 249_900, currency: 'MXN' }),
    ]);
  });

  it('gives a SPEI payment its CLABE', async () => {
    const { payment } = await startPaying('clabe');
    expect(payment.clabe).toMatch(/^\d{18}$/);
  });

  it('enrols only once Mercado Pago reports the payment approved, read back by id', async () => {
    const { cookie, user, diploma, payment } = await startPaying();
    // a notification before the money arrived changes nothing
    expect((await deliver(fake.notification('payment', payment.paymentId))).statusCode).toBe(200);
    expect(await enrolled(diploma.id, user.id)).toBe(false);
    fake.approve(payment.paymentId);
    expect((await deliver(fake.notification('payment', payment.paymentId))).json()).toEqual({
      received: true,
      outcome: 'stored',
    });
    expect(await enrolled(diploma.id, user.id)).toBe(true);
    expect(await transactionOf(payment.paymentId)).toMatchObject({ status: 'COMPLETED' });
    const history = await t.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(history).toEqual([
      expect.objectContaining({ result: 'COMPLETADO', amountCents: 249_900, currency: 'MXN', provider: 'mercadopago' }),
    ]);
    expect((await memberRequest(t, cookie, 'GET', '/api/profile/payments/pending')).json().payments).toEqual([]);
  });

  it('marks an expired voucher expired, with no trace of access', async () => {
    const { cookie, user, diploma, payment } = await startPaying();
    fake.expire(payment.paymentId);
    await deliver(fake.notification('payment', payment.paymentId));
    expect(await enrolled(diploma.id, user.id)).toBe(false);
    expect(await orderOf(payment.paymentId)).toMatchObject({ status: 'EXPIRED' });
    expect(await transactionOf(payment.paymentId)).toMatchObject({ status: 'DENIED' });
    expect((await memberRequest(t, cookie, 'GET', '/api/profile/payments/pending')).json().payments).toEqual([]);
  });

  it.each(['refund', 'chargeBack'] as const)('removes the diploma after a %s', async (action) => {
    const { user, diploma, payment } = await startPaying();
    fake.approve(payment.paymentId);
    await deliver(fake.notification('payment', payment.paymentId));
    expect(await enrolled(diploma.id, user.id)).toBe(true);
    fake[action](payment.paymentId);
    await deliver(fake.notification('payment', payment.paymentId));
    expect(await enrolled(diploma.id, user.id)).toBe(false);
    expect(await transactionOf(payment.paymentId)).toMatchObject({ status: 'REFUNDED' });
  });

  it('keeps access while a dispute is open (in_mediation), until Mercado Pago decides', async () => {
    const { user, diploma, payment } = await startPaying();
    fake.approve(payment.paymentId);
    await deliver(fake.notification('payment', payment.paymentId));
    fake.dispute(payment.paymentId);
    await deliver(fake.notification('payment', payment.paymentId));
    expect(await enrolled(diploma.id, user.id)).toBe(true);
  });

  it('grants nothing when the amount read back is not what we asked for', async () => {
    const { user, diploma, payment } = await startPaying();
    fake.approve(payment.paymentId);
    fake.payments.get(payment.paymentId)!.transaction_amount = 1;
    await deliver(fake.notification('payment', payment.paymentId));
    expect(await enrolled(diploma.id, user.id)).toBe(false);
  });
});

describe('notifications', () => {
  it('refuses a forged or altered notification, and changes nothing', async () => {
    const { user, diploma, payment } = await startPaying();
    fake.approve(payment.paymentId);
    const genuine = fake.notification('payment', payment.paymentId);
    const forged = { ...genuine, headers: { ...genuine.headers, 'x-signature': `ts=1,v1=${'0'.repeat(64)}` } };
    expect((await deliver(forged)).statusCode).toBe(401);
    const otherId = { ...genuine, query: { ...genuine.query, 'data.id': '1' } };
    expect((await deliver(otherId)).statusCode).toBe(401);
    const unsigned = { ...genuine, headers: { 'content-type': 'application/json' } };
    expect((await deliver(unsigned)).statusCode).toBe(401);
    expect(await enrolled(diploma.id, user.id)).toBe(false);
  });

  it('drops a notification already stored (a replay or a retry), and stores it with its job', async () => {
    const { payment } = await startPaying();
    const hook = fake.notification('payment', payment.paymentId);
    expect((await deliver(hook)).json().outcome).toBe('stored');
    expect((await deliver(hook)).json().outcome).toBe('duplicate');
    const stored = await t.db
      .select()
      .from(paymentWebhookEvents)
      .where(eq(paymentWebhookEvents.id, `mercadopago:${JSON.parse(hook.rawBody).id}`));
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ provider: 'mercadopago', type: 'payment' });
    expect(stored[0]!.processedAt).not.toBeNull();
  });

  it('accepts a signed notification about a payment we never asked for and changes nothing', async () => {
    const response = await deliver(fake.notification('payment', '99999999'));
    expect(response.statusCode).toBe(200);
  });

  it('keeps the job queued while Mercado Pago cannot be read, and applies it once it can', async () => {
    const { user, diploma, payment } = await startPaying();
    fake.approve(payment.paymentId);
    fake.fail(`GET /v1/payments/${payment.paymentId}`, 503, 3);
    const hook = fake.notification('payment', payment.paymentId);
    expect((await deliver(hook)).statusCode).toBe(200);
    expect(await enrolled(diploma.id, user.id)).toBe(false);
    const id = `mercadopago:${JSON.parse(hook.rawBody).id}`;
    const [waiting] = await t.db.select().from(paymentWebhookEvents).where(eq(paymentWebhookEvents.id, id));
    expect(waiting!.processedAt).toBeNull();
    expect(waiting!.error).toMatch(/503/);
    expect(await t.app.services.mercadoPago!.applyStoredNotification(id)).toBe('applied');
    expect(await enrolled(diploma.id, user.id)).toBe(true);
  });
});

describe('Mercado Pago down when the member starts paying', () => {
  it('tells the member to try again later and records no payment', async () => {
    const { cookie } = await signedInAs(t, { type: 'Premium' });
    const diploma = await createDiploma(t, { values: { costMxnCents: 100_000 } });
    fake.fail('POST /v1/payments', 503, 3);
    const response = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/pesos`, {
      method: 'oxxo',
    });
    expect(response.statusCode).toBe(503);
    expect(response.json().message).toBe(
      'Mercado Pago no responde en este momento. Intenta de nuevo más tarde; no se hizo ningún cargo.',
    );
    expect(await t.db.select().from(diplomaTransactions).where(eq(diplomaTransactions.diplomaId, diploma.id))).toEqual(
      [],
    );
    // nothing holds the member's place: once Mercado Pago answers, the next try makes the voucher
    expect(await t.db.select().from(paymentOrders).where(eq(paymentOrders.reference, diploma.id))).toEqual([]);
    const retried = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/pesos`, {
      method: 'oxxo',
    });
    expect(retried.statusCode).toBe(200);
  });

  it('refuses a diploma without a price in pesos, and a Basic member', async () => {
    const premium = await signedInAs(t, { type: 'Premium' });
    const usdOnly = await createDiploma(t, { values: { costCents: 14_990 } });
    const refused = await memberRequest(t, premium.cookie, 'POST', `/api/diplomas/${usdOnly.id}/purchase/pesos`, {
      method: 'oxxo',
    });
    expect(refused.statusCode).toBe(403);
    const basic = await signedInAs(t, { type: 'Gratis' });
    const priced = await createDiploma(t, { values: { costMxnCents: 100_000 } });
    const notPremium = await memberRequest(t, basic.cookie, 'POST', `/api/diplomas/${priced.id}/purchase/pesos`, {
      method: 'oxxo',
    });
    expect(notPremium.statusCode).toBe(403);
  });
});
