import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { paymentSubscriptions, planPrices, users } from '#server/db/schema/index.ts';
import { startMercadoPagoFake, type MercadoPagoFake } from '#server/services/payments/simulated-mercadopago.ts';
import { periodMs } from '#shared/membership/membership.rules.ts';

/** 'Premium anual (pago único)' at OXXO or by SPEI, against the strict fake Mercado Pago. */
let fake: MercadoPagoFake;
let t: TestApp;
const accessToken = 'TEST-pase-anual';
const webhookSecret = 'secreto-del-pase';
const annualMxn = 199_900;

beforeAll(async () => {
  fake = await startMercadoPagoFake({ accessToken, webhookSecret });
  t = await createTestApp({
    paymentsProviders: ['simulado'],
    mercadopago: { apiUrl: fake.url, accessToken, webhookSecret },
  });
  await t.db.insert(planPrices).values({ plan: 'annual', currency: 'MXN', amountCents: annualMxn });
}, 180_000);
afterAll(async () => {
  await t.close();
  await fake.close();
});

const userRow = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0]!;
const post = (cookie: string, url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: { cookie, origin: testPublicUrl }, payload });
const membershipOf = async (cookie: string) =>
  (await t.app.inject({ url: '/api/profile', headers: { cookie } })).json().membership as Record<string, unknown>;

async function notify(paymentId: string) {
  const hook = fake.notification('payment', paymentId);
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/payments/webhooks/mercadopago?${new URLSearchParams(hook.query).toString()}`,
    headers: hook.headers,
    payload: hook.rawBody,
  });
  expect(response.statusCode).toBe(200);
  await t.app.services.jobs.runDue();
}

/** A Basic member asks for the pass at OXXO; returns the voucher. */
async function buyPass(method: 'oxxo' | 'clabe' = 'oxxo') {
  const member = await signedInAs(t, { type: 'Gratis' });
  const response = await post(member.cookie, '/api/payments/mercadopago/premium-pass', { method });
  expect(response.statusCode, response.body).toBe(200);
  return { ...member, voucher: response.json() as { paymentId: string; amountCents: number; method: string } };
}

describe('Premium anual (pago único)', () => {
  it('shows the voucher at the annual price in pesos and grants nothing until the money arrives', async () => {
    const { user, cookie, voucher } = await buyPass();
    expect(voucher).toMatchObject({ method: 'oxxo', amountCents: annualMxn });
    expect(fake.payments.get(voucher.paymentId)).toMatchObject({ transaction_amount: 1999, currency_id: 'MXN' });
    await notify(voucher.paymentId);
    expect((await userRow(user.id)).type).toBe('Gratis');
    const pending = await t.app.inject({ url: '/api/profile/payments/pending', headers: { cookie } });
    expect(pending.json().payments).toEqual([
      expect.objectContaining({ paymentId: voucher.paymentId, description: 'Premium anual (pago único)' }),
    ]);
    // asking again answers the same voucher: never two to pay
    const again = await post(cookie, '/api/payments/mercadopago/premium-pass', { method: 'clabe' });
    expect(again.json().paymentId).toBe(voucher.paymentId);
  });

  it('once approved, the member is Premium for 365.24 days, with nothing to renew or downgrade; the sweep ends it', async () => {
    const { user, cookie, voucher } = await buyPass('clabe');
    fake.approve(voucher.paymentId);
    await notify(voucher.paymentId);
    const member = await userRow(user.id);
    expect(member).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN', annualPlan: true });
    expect(member.subscriptionId).toBe(`PASE:${voucher.paymentId}`);
    const membership = await membershipOf(cookie);
    expect(membership).toMatchObject({ isPrepaid: true, isManual: false, nextPaymentDate: null, canDowngrade: false });
    expect(new Date(membership.terminationDate as string).getTime()).toBe(
      member.paymentDay!.getTime() + periodMs.annual,
    );
    expect((await post(cookie, '/api/membership/downgrade')).statusCode).toBe(409);
    // a year later
    await t.db
      .update(users)
      .set({ paymentDay: new Date(Date.now() - periodMs.annual - 60_000) })
      .where(eq(users.id, user.id));
    await t.app.services.membership.sweep();
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis', subscriptionId: null });
  });

  it('an expired voucher leaves no access; a refund of a paid pass ends Premium at once', async () => {
    const expired = await buyPass();
    fake.expire(expired.voucher.paymentId);
    await notify(expired.voucher.paymentId);
    expect((await userRow(expired.user.id)).type).toBe('Gratis');

    const refunded = await buyPass();
    fake.approve(refunded.voucher.paymentId);
    await notify(refunded.voucher.paymentId);
    expect((await userRow(refunded.user.id)).type).toBe('Premium');
    fake.refund(refunded.voucher.paymentId);
    await notify(refunded.voucher.paymentId);
    expect(await userRow(refunded.user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'CANCELLED' });
  });

  it('is refused to a Premium member, while a subscription is live, to a guest, and when the annual plan has no price in pesos', async () => {
    const premium = await signedInAs(t, { type: 'Premium' });
    expect((await post(premium.cookie, '/api/payments/mercadopago/premium-pass', { method: 'oxxo' })).statusCode).toBe(
      409,
    );
    const failing = await signedInAs(t, { type: 'Gratis', paymentStatus: 'FALLIDO' });
    await t.db.insert(paymentSubscriptions).values({
      userId: failing.user.id,
      provider: 'mercadopago',
      providerSubscriptionId: `pre-${failing.user.id}`,
      plan: 'monthly',
      state: 'ACTIVA',
    });
    expect((await post(failing.cookie, '/api/payments/mercadopago/premium-pass', { method: 'oxxo' })).statusCode).toBe(
      409,
    );
    const guest = await t.app.inject({
      method: 'POST',
      url: '/api/payments/mercadopago/premium-pass',
      headers: { origin: testPublicUrl },
      payload: { method: 'oxxo' },
    });
    expect(guest.statusCode).toBe(401);
    await t.db.delete(planPrices).where(eq(planPrices.plan, 'annual'));
    try {
      const basic = await signedInAs(t, { type: 'Gratis' });
      expect((await post(basic.cookie, '/api/payments/mercadopago/premium-pass', { method: 'oxxo' })).statusCode).toBe(
        403,
      );
    } finally {
      await t.db.insert(planPrices).values({ plan: 'annual', currency: 'MXN', amountCents: annualMxn });
    }
  });
});
