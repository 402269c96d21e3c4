import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { mailOutbox, paymentSubscriptions, paymentWebhookEvents, payments, users } from '#server/db/schema/index.ts';
import { signSimulatedWebhook } from '#server/services/payments/simulated-records.ts';
import {
  captureWebhooks,
  deliverWebhook,
  postWebhook,
  pressCheckout,
  signedHeaders,
  simulatedSecret,
  simulator,
  startSubscription,
  subscribeAndApprove,
} from './payments.testing.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

const userRow = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0]!;
/** The paid period of a member in POR_TERMINAR is over: the scheduled change runs. */
async function endPaidPeriod(userId: string) {
  await t.db
    .update(users)
    .set({ terminationDate: new Date(Date.now() - 1000) })
    .where(eq(users.id, userId));
  await t.app.services.membership.applyDueChanges(userId);
}
const mailsTo = async (email: string) =>
  (await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, email))).map((mail) => mail.subject);
const confirm = (cookie: string, id: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/payments/subscriptions/${id}/confirm`,
    headers: { cookie, origin: testPublicUrl },
  });

describe('GET /api/payments/config', () => {
  it('names the simulated provider and the plan prices', async () => {
    const response = await t.app.inject({ url: '/api/payments/config' });
    expect(response.json()).toEqual({
      provider: 'simulado',
      providerName: 'Pago simulado',
      prices: { monthly: 999, annual: 9990 },
      pesosMethods: [],
      pesosPlans: { monthly: null, annual: null },
    });
  });
});

describe('subscribing through the simulated provider', () => {
  it('sends the browser to our own checkout page, which offers approve, fail and cancel', async () => {
    const { cookie } = await signedInAs(t, { type: 'Gratis' });
    const { subscriptionId, approvalUrl } = await startSubscription(t, cookie, 'annual');
    expect(approvalUrl).toBe(`${testPublicUrl}/pago-simulado/suscripcion/${subscriptionId}`);
    const page = await t.app.inject({ url: new URL(approvalUrl).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Premium anual');
    expect(page.body).toContain('99.90 USD');
    for (const label of ['Aprobar suscripción', 'Simular pago rechazado', 'Cancelar y volver'])
      expect(page.body).toContain(label);
  });

  it('makes the member Premium with the plan, payment day and a payment row once the provider confirms the payment', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    const { subscriptionId } = await startSubscription(t, cookie, 'annual');
    const approved = await pressCheckout(t, subscriptionId, 'approve');
    expect(approved.statusCode).toBe(303);
    const back = new URL(String(approved.headers.location));
    expect(back.pathname).toBe('/registro-finalizar');
    expect(back.searchParams.get('subscription_id')).toBe(subscriptionId);

    const row = await userRow(user.id);
    expect(row).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN', annualPlan: true, subscriptionId });
    expect(Date.now() - row.paymentDay!.getTime()).toBeLessThan(60_000);
    const history = await t.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(history).toMatchObject([
      { kind: 'subscription', result: 'COMPLETADO', amountCents: 9990, description: 'Premium anual' },
    ]);
    expect(await mailsTo(user.email)).toEqual(['Tu membresía CxVet ahora es Premium']);

    const confirmed = await confirm(cookie, subscriptionId);
    expect(confirmed.json()).toEqual({ state: 'ACTIVA', isPremium: true });
    const listed = await t.app.inject({ url: '/api/profile/payments', headers: { cookie } });
    expect(listed.json().payments).toMatchObject([{ result: 'COMPLETADO', amountCents: 9990, currency: 'USD' }]);
  });

  it('grants nothing for a return URL the browser forges before approving', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    const { subscriptionId } = await startSubscription(t, cookie);
    const response = await confirm(cookie, subscriptionId);
    expect(response.json()).toEqual({ state: 'PENDIENTE', isPremium: false });
    expect((await userRow(user.id)).type).toBe('Gratis');
  });

  it("does not let a member confirm someone else's subscription, or one we never created", async () => {
    const owner = await signedInAs(t, { type: 'Gratis' });
    const other = await signedInAs(t, { type: 'Gratis' });
    const { subscriptionId } = await startSubscription(t, owner.cookie);
    await pressCheckout(t, subscriptionId, 'approve');
    expect((await confirm(other.cookie, subscriptionId)).statusCode).toBe(404);
    expect((await confirm(other.cookie, 'I-INVENTED')).statusCode).toBe(404);
    expect((await userRow(other.user.id)).type).toBe('Gratis');
  });

  it('leaves the member Basic when they cancel at the checkout', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    const { subscriptionId } = await startSubscription(t, cookie);
    const cancelled = await pressCheckout(t, subscriptionId, 'cancel');
    expect(new URL(String(cancelled.headers.location)).searchParams.get('pago')).toBe('cancelado');
    expect((await userRow(user.id)).type).toBe('Gratis');
  });

  it('turns a declined first payment into FALLIDO with one e-mail', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    const { subscriptionId } = await startSubscription(t, cookie);
    await pressCheckout(t, subscriptionId, 'fail');
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'FALLIDO' });
    expect(await mailsTo(user.email)).toEqual(['No se pudo realizar el pago de tu suscripción CxVet']);
    expect((await confirm(cookie, subscriptionId)).json().isPremium).toBe(false);
  });

  it('turns a failed renewal into FALLIDO and Gratis, and a later successful one back into Premium', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    const subscriptionId = await subscribeAndApprove(t, cookie);
    await pressCheckout(t, subscriptionId, 'renew-fail');
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'FALLIDO', subscriptionId });
    expect(await mailsTo(user.email)).toContain('No se pudo realizar el pago de tu suscripción CxVet');
    await pressCheckout(t, subscriptionId, 'renew');
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN' });
    const results = (await t.db.select().from(payments).where(eq(payments.userId, user.id)))
      .map((row) => row.result)
      .sort();
    expect(results).toEqual(['COMPLETADO', 'COMPLETADO', 'FALLIDO']);
  });

  it('moves the payment day on a renewal', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    const subscriptionId = await subscribeAndApprove(t, cookie);
    const first = (await userRow(user.id)).paymentDay!;
    await new Promise((resolve) => setTimeout(resolve, 5));
    await pressCheckout(t, subscriptionId, 'renew');
    expect((await userRow(user.id)).paymentDay!.getTime()).toBeGreaterThan(first.getTime());
  });

  it('keeps a subscription cancelled at the provider POR_TERMINAR until the paid period ends, then CANCELLED', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    const subscriptionId = await subscribeAndApprove(t, cookie);
    await pressCheckout(t, subscriptionId, 'provider-cancel');
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'POR_TERMINAR' });
    expect((await userRow(user.id)).terminationDate!.getTime()).toBeGreaterThan(Date.now());
    await endPaidPeriod(user.id);
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'CANCELLED' });
    const [row] = await t.db
      .select()
      .from(paymentSubscriptions)
      .where(eq(paymentSubscriptions.providerSubscriptionId, subscriptionId));
    expect(row!.state).toBe('CANCELADA');
  });

  it('is refused to a guest, and to a member who is already Premium', async () => {
    const guest = await t.app.inject({
      method: 'POST',
      url: '/api/payments/subscriptions',
      headers: { origin: testPublicUrl },
      payload: { plan: 'monthly' },
    });
    expect(guest.statusCode).toBe(401);
    const { cookie } = await signedInAs(t, { type: 'Premium' });
    const premium = await t.app.inject({
      method: 'POST',
      url: '/api/payments/subscriptions',
      headers: { cookie, origin: testPublicUrl },
      payload: { plan: 'monthly' },
    });
    expect(premium.statusCode).toBe(409);
    expect((await t.app.inject({ url: '/api/profile/payments' })).statusCode).toBe(401);
  });
});

describe('webhooks', () => {
  it('are refused with a forged or missing signature, and nothing is stored', async () => {
    const rawBody = JSON.stringify({
      id: 'WH-FORGED-1',
      event_type: 'PAYMENT.SALE.COMPLETED',
      resource: { billing_agreement_id: 'I-X' },
    });
    const forged = await postWebhook(t, rawBody, {
      'content-type': 'application/json',
      'x-simulado-signature': signSimulatedWebhook('otro-secreto', rawBody),
    });
    expect(forged.statusCode).toBe(401);
    const missing = await postWebhook(t, rawBody, { 'content-type': 'application/json' });
    expect(missing.statusCode).toBe(401);
    const tampered = await postWebhook(t, rawBody.replace('I-X', 'I-Y'), signedHeaders(t, rawBody));
    expect(tampered.statusCode).toBe(401);
    const stale = await postWebhook(t, rawBody, {
      'content-type': 'application/json',
      'x-simulado-signature': signSimulatedWebhook(simulatedSecret(t), rawBody, Date.now() - 10 * 60_000),
    });
    expect(stale.statusCode).toBe(401);
    expect(
      await t.db.select().from(paymentWebhookEvents).where(eq(paymentWebhookEvents.id, 'WH-FORGED-1')),
    ).toHaveLength(0);
  });

  it('do not need our Origin, since the provider posts them', async () => {
    const rawBody = JSON.stringify({
      id: 'WH-ORIGIN-1',
      event_type: 'BILLING.SUBSCRIPTION.CREATED',
      resource: { id: 'I-NONE' },
    });
    const response = await postWebhook(t, rawBody, { ...signedHeaders(t, rawBody), origin: 'https://api.paypal.com' });
    expect(response.statusCode).toBe(200);
  });

  it('are stored once and applied once by the job even when one is delivered five times at once', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    const capture = captureWebhooks(t);
    const { subscriptionId } = await startSubscription(t, cookie);
    await pressCheckout(t, subscriptionId, 'approve');
    capture.restore();
    const activated = capture.captured.find((each) => each.type === 'BILLING.SUBSCRIPTION.ACTIVATED')!;
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => postWebhook(t, activated.rawBody, activated.headers)),
    );
    expect(responses.map((response) => response.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(responses.filter((response) => response.json().outcome === 'stored')).toHaveLength(1);
    await t.app.services.jobs.runDue();
    const eventId = JSON.parse(activated.rawBody).id as string;
    const stored = await t.db.select().from(paymentWebhookEvents).where(eq(paymentWebhookEvents.id, eventId));
    expect(stored).toHaveLength(1);
    expect(stored[0]!.processedAt).not.toBeNull();
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium', subscriptionId });
    expect(await t.db.select().from(payments).where(eq(payments.userId, user.id))).toHaveLength(1);
    expect(await mailsTo(user.email)).toEqual(['Tu membresía CxVet ahora es Premium']);
  });

  it('end in the same state whatever order they arrive in', async () => {
    const runScenario = async (order: 'forward' | 'reverse' | 'shuffled') => {
      const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
      const capture = captureWebhooks(t);
      const { subscriptionId } = await startSubscription(t, cookie);
      await pressCheckout(t, subscriptionId, 'approve');
      await pressCheckout(t, subscriptionId, 'renew');
      await pressCheckout(t, subscriptionId, 'renew-fail');
      capture.restore();
      const events = [...capture.captured];
      if (order === 'reverse') events.reverse();
      if (order === 'shuffled') events.push(events.shift()!, events.shift()!);
      for (const event of events) expect((await deliverWebhook(t, event.rawBody, event.headers)).statusCode).toBe(200);
      const row = await userRow(user.id);
      const results = (await t.db.select().from(payments).where(eq(payments.userId, user.id)))
        .map((each) => each.result)
        .sort();
      return {
        type: row.type,
        paymentStatus: row.paymentStatus,
        subscriptionMatches: row.subscriptionId === subscriptionId,
        results,
        mails: (await mailsTo(user.email)).filter((subject) => subject.startsWith('No se pudo')).length,
      };
    };
    const forward = await runScenario('forward');
    expect(forward).toEqual({
      type: 'Gratis',
      paymentStatus: 'FALLIDO',
      subscriptionMatches: true,
      results: ['COMPLETADO', 'COMPLETADO', 'FALLIDO'],
      mails: 1,
    });
    expect(await runScenario('reverse')).toEqual(forward);
    expect(await runScenario('shuffled')).toEqual(forward);
  });

  it('ignore a cancellation of an old subscription once the member pays for a new one', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    const first = await subscribeAndApprove(t, cookie);
    await pressCheckout(t, first, 'provider-cancel');
    await endPaidPeriod(user.id);
    const second = await subscribeAndApprove(t, cookie);
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium', subscriptionId: second });
    // a late, replayed notice about the first one
    await t.app.services.payments.reconcileSubscription(first);
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN', subscriptionId: second });
  });

  it('answer 404 for a provider that is not configured', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/paypal',
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(response.statusCode).toBe(404);
  });
});

describe('simulated checkout page', () => {
  it('answers 404 for an unknown subscription', async () => {
    expect((await t.app.inject({ url: '/pago-simulado/suscripcion/I-NADA' })).statusCode).toBe(404);
    expect(await simulator(t).describe('subscription', 'I-NADA')).toBeNull();
  });
});
