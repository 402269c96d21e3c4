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
  payments,
  planPrices,
  users,
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
  await t.db.insert(planPrices).values({ plan: 'annual', currency: 'MXN', amountCents: 179_900 }).onConflictDoNothing();
}, 180_000);
afterAll(async () => {
  await t.close();
  await fake.close();
});

const deliver = (hook: SignedNotification) => deliverMercadoPago(t, hook);
const paymentReads = (paymentId: string) =>
  fake.requests.filter((request) => request.method === 'GET' && request.url.startsWith(`/v1/payments/${paymentId}`))
    .length;

const enrolled = async (diplomaId: string, userId: string) =>
  (
    await t.db
      .select()
      .from(diplomaUsers)
      .where(and(eq(diplomaUsers.diplomaId, diplomaId), eq(diplomaUsers.userId, userId)))
  ).length > 0;

/** What we sent Mercado Pago for a preference, as far as these tests read it. */
type PreferenceBody = {
  items: { unit_price: number; title: string; currency_id: string; quantity: number }[];
  payment_methods: { excluded_payment_types: { id: string }[] };
  back_urls: { success: string };
  expires: boolean;
  expiration_date_to: string;
};

/** The preference id in a Checkout Pro init_point of the fake. */
const preferenceOf = (approvalUrl: string) => new URL(approvalUrl).searchParams.get('pref_id')!;

/** A Premium member starts paying a diploma priced in pesos by card. */
async function startCard() {
  const { cookie, user } = await signedInAs(t, { type: 'Premium' });
  const diploma = await createDiploma(t, { values: { costCents: 14_990, costMxnCents: 249_900 } });
  const response = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/pesos/card`);
  expect(response.statusCode, response.body).toBe(200);
  const { approvalUrl } = response.json() as { approvalUrl: string };
  return { cookie, user, diploma, approvalUrl, preferenceId: preferenceOf(approvalUrl) };
}

describe('a diploma paid by card in pesos on Checkout Pro', () => {
  it('sends the member to a card-only page of the MXN price that expires in a day; nothing granted yet', async () => {
    const { user, diploma, preferenceId } = await startCard();
    const body = fake.preferences.get(preferenceId)!.body as PreferenceBody;
    expect(body.items).toEqual([expect.objectContaining({ unit_price: 2499, currency_id: 'MXN', quantity: 1 })]);
    expect(body.payment_methods.excluded_payment_types).toEqual(
      expect.arrayContaining([{ id: 'ticket' }, { id: 'bank_transfer' }]),
    );
    expect(body.back_urls.success).toMatch(
      new RegExp(`/mis-diplomados/diplomado-preview/${diploma.id}\\?pago=mercadopago$`),
    );
    expect(body.expires).toBe(true);
    const until = Date.parse(body.expiration_date_to);
    expect(until).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    expect(until).toBeLessThan(Date.now() + 25 * 3_600_000);
    expect(await enrolled(diploma.id, user.id)).toBe(false);
  });

  it('enrols once the payment is read back approved, from the notification alone (browser closed)', async () => {
    const { user, diploma, preferenceId } = await startCard();
    const paymentId = fake.payPreference(preferenceId, 'approved');
    expect((await deliver(fake.notification('payment', paymentId))).statusCode).toBe(200);
    expect(await enrolled(diploma.id, user.id)).toBe(true);
    const [transaction] = await t.db
      .select()
      .from(diplomaTransactions)
      .where(eq(diplomaTransactions.providerOrderId, paymentId));
    expect(transaction).toMatchObject({ status: 'COMPLETED', currency: 'MXN', amountCents: 249_900 });
    const [order] = await t.db.select().from(paymentOrders).where(eq(paymentOrders.providerOrderId, paymentId));
    expect(order).toMatchObject({ status: 'COMPLETED', userId: user.id });
    const history = await t.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(history).toEqual([expect.objectContaining({ result: 'COMPLETADO', amountCents: 249_900, currency: 'MXN' })]);
  });

  it('on the member’s return reads the payment back: approved enrols, a payment id that is not theirs is a 404', async () => {
    const { cookie, user, diploma, preferenceId } = await startCard();
    const paymentId = fake.payPreference(preferenceId, 'approved');
    const stranger = await signedInAs(t, { type: 'Premium' });
    const foreign = await memberRequest(t, stranger.cookie, 'POST', '/api/payments/mercadopago/checkout/confirm', {
      paymentId,
    });
    expect(foreign.statusCode).toBe(404);
    expect(await enrolled(diploma.id, user.id)).toBe(false);
    const readsBefore = paymentReads(paymentId);
    const mine = await memberRequest(t, cookie, 'POST', '/api/payments/mercadopago/checkout/confirm', { paymentId });
    expect(mine.json()).toEqual({ status: 'COMPLETED' });
    expect(await enrolled(diploma.id, user.id)).toBe(true);
    // read back once, and that reading applied
    expect(paymentReads(paymentId) - readsBefore).toBe(1);
    // the notification arriving afterwards changes nothing more
    await deliver(fake.notification('payment', paymentId));
    const history = await t.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(history).toHaveLength(1);
    const guest = await t.app.inject({
      method: 'POST',
      url: '/api/payments/mercadopago/checkout/confirm',
      payload: { paymentId },
    });
    expect(guest.statusCode).toBe(401);
  });

  it('a rejected card leaves the page payable: another card on it then enrols', async () => {
    const { cookie, user, diploma, preferenceId } = await startCard();
    const rejected = fake.payPreference(preferenceId, 'rejected');
    await deliver(fake.notification('payment', rejected));
    const back = await memberRequest(t, cookie, 'POST', '/api/payments/mercadopago/checkout/confirm', {
      paymentId: rejected,
    });
    expect(back.json()).toEqual({ status: 'DENIED' });
    expect(await enrolled(diploma.id, user.id)).toBe(false);
    const approved = fake.payPreference(preferenceId, 'approved');
    await deliver(fake.notification('payment', approved));
    expect(await enrolled(diploma.id, user.id)).toBe(true);
  });

  it('grants nothing for a payment whose amount is not what we asked for', async () => {
    const { user, diploma, preferenceId } = await startCard();
    const paymentId = fake.payPreference(preferenceId, 'approved');
    fake.payments.get(paymentId)!.transaction_amount = 1;
    await deliver(fake.notification('payment', paymentId));
    expect(await enrolled(diploma.id, user.id)).toBe(false);
  });

  it('an OXXO voucher waiting for money answers PAYMENT_PENDING; a card page left for OXXO still counts if paid', async () => {
    const { cookie, user, diploma, preferenceId } = await startCard();
    // the member changes their mind: OXXO replaces the card page as the one pending payment
    const oxxo = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/pesos`, {
      method: 'oxxo',
    });
    expect(oxxo.statusCode).toBe(200);
    const again = await memberRequest(t, cookie, 'POST', `/api/diplomas/${diploma.id}/purchase/pesos/card`);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('PAYMENT_PENDING');
    // ...but the card page was paid after all: the money counts, the member is enrolled
    const paymentId = fake.payPreference(preferenceId, 'approved');
    await deliver(fake.notification('payment', paymentId));
    expect(await enrolled(diploma.id, user.id)).toBe(true);
  });

  it('two card requests at once leave one pending checkout', async () => {
    const { cookie } = await signedInAs(t, { type: 'Premium' });
    const diploma = await createDiploma(t, { values: { costCents: 14_990, costMxnCents: 249_900 } });
    const url = `/api/diplomas/${diploma.id}/purchase/pesos/card`;
    const answers = await Promise.all([memberRequest(t, cookie, 'POST', url), memberRequest(t, cookie, 'POST', url)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const pending = await t.db
      .select()
      .from(paymentOrders)
      .where(and(eq(paymentOrders.reference, diploma.id), eq(paymentOrders.status, 'PENDING')));
    expect(pending).toHaveLength(1);
  });

  it('is refused to Basic members and guests, and while Mercado Pago is down nothing is left behind', async () => {
    const diploma = await createDiploma(t, { values: { costCents: 14_990, costMxnCents: 249_900 } });
    const url = `/api/diplomas/${diploma.id}/purchase/pesos/card`;
    const basic = await signedInAs(t, { type: 'Gratis' });
    expect((await memberRequest(t, basic.cookie, 'POST', url)).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url })).statusCode).toBe(401);
    const { cookie, user } = await signedInAs(t, { type: 'Premium' });
    fake.fail('POST /checkout/preferences', 500, 3);
    const down = await memberRequest(t, cookie, 'POST', url);
    expect(down.statusCode).toBe(503);
    expect(await t.db.select().from(paymentOrders).where(eq(paymentOrders.userId, user.id))).toEqual([]);
  });
});

describe('the Premium pass by card in pesos', () => {
  it('starts Premium for a year once the card payment is read back approved, and a refund ends it', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    const response = await memberRequest(t, cookie, 'POST', '/api/payments/mercadopago/premium-pass/card');
    expect(response.statusCode, response.body).toBe(200);
    const preferenceId = preferenceOf(response.json().approvalUrl);
    const body = fake.preferences.get(preferenceId)!.body as PreferenceBody;
    expect(body.items[0]).toMatchObject({ unit_price: 1799, title: 'Premium anual (pago único)' });
    expect(body.back_urls.success).toMatch(/\/perfil\?pago=mercadopago$/);
    const paymentId = fake.payPreference(preferenceId, 'approved');
    const back = await memberRequest(t, cookie, 'POST', '/api/payments/mercadopago/checkout/confirm', { paymentId });
    expect(back.json()).toEqual({ status: 'COMPLETED' });
    const [row] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(row!.type).toBe('Premium');
    fake.refund(paymentId);
    await deliver(fake.notification('payment', paymentId));
    const [after] = await t.db.select().from(users).where(eq(users.id, user.id));
    expect(after!.type).toBe('Gratis');
  });

  it('is refused to a Premium member', async () => {
    const { cookie } = await signedInAs(t, { type: 'Premium' });
    const response = await memberRequest(t, cookie, 'POST', '/api/payments/mercadopago/premium-pass/card');
    expect(response.statusCode).toBe(409);
  });
});
