import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs, testPassword } from '#server/testing/factories.ts';
import { paymentSubscriptions, users } from '#server/db/schema/index.ts';
import { startPayPalFake, type PayPalFake } from '#server/services/payments/paypal-fake.testing.ts';
import { createSimulatedProvider, type SimulatedProvider } from '#server/services/payments/simulated-provider.ts';
import type { SubscriptionOperations } from '#server/services/payments/provider-registry.ts';

/**
 * PayPal (the strict fake) and a second provider holding subscriptions at once: every downgrade,
 * reactivation, end of period, deletion and reconciliation reaches the provider recorded on the
 * subscription, and never the other one.
 */
let fake: PayPalFake;
let second: SimulatedProvider;
let t: TestApp;
/** Every call membership or privacy made to the second provider. */
const secondCalls: string[] = [];

function recorded(provider: SimulatedProvider): SubscriptionOperations {
  return {
    name: provider.name,
    getSubscription: (id) => (secondCalls.push(`get ${id}`), provider.getSubscription(id)),
    suspendSubscription: (id, reason) => (secondCalls.push(`suspend ${id}`), provider.suspendSubscription(id, reason)),
    activateSubscription: (id, reason) => (
      secondCalls.push(`activate ${id}`),
      provider.activateSubscription(id, reason)
    ),
    cancelSubscription: (id, reason) => (secondCalls.push(`cancel ${id}`), provider.cancelSubscription(id, reason)),
  };
}

beforeAll(async () => {
  fake = await startPayPalFake({
    clientId: 'cliente',
    clientSecret: 'secreto',
    planIds: { 'P-MENSUAL': 'monthly', 'P-ANUAL': 'annual' },
    webhookId: 'WH-ID',
  });
  t = await createTestApp(
    {
      paymentsProvider: 'paypal',
      paypal: {
        apiUrl: fake.url,
        clientId: 'cliente',
        clientSecret: 'secreto',
        planIds: { monthly: 'P-MENSUAL', annual: 'P-ANUAL' },
        webhookId: 'WH-ID',
      },
    },
    undefined,
    {
      otherSubscriptionProviders: (db) => {
        // its webhooks go nowhere: what it holds is read back by id, as every provider's is
        second = createSimulatedProvider({
          db,
          publicUrl: testPublicUrl,
          secret: 'segundo',
          transport: async () => {},
        });
        return [recorded(second)];
      },
    },
  );
}, 180_000);
afterAll(async () => {
  await t.close();
  await fake.close();
});
beforeEach(() => {
  secondCalls.length = 0;
});

const userRow = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0]!;
const subscriptionRow = async (id: string) =>
  (await t.db.select().from(paymentSubscriptions).where(eq(paymentSubscriptions.providerSubscriptionId, id)))[0]!;
const api = (cookie: string, url: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: { cookie, origin: testPublicUrl }, payload });
const paypalAskedAbout = (id: string) => fake.requests.some((request) => request.url.includes(id));
const secondStatus = async (id: string) => (await second.getSubscription(id))?.status;

/** A live subscription at the second provider, recorded as ours and paid: the member is Premium through it. */
async function secondSubscription(userId: string) {
  const { id } = await second.createSubscription({
    plan: 'monthly',
    customId: userId,
    returnUrl: `${testPublicUrl}/perfil`,
    cancelUrl: `${testPublicUrl}/perfil`,
  });
  await second.act('subscription', id, 'approve');
  expect(await secondStatus(id)).toBe('ACTIVE');
  await t.db
    .insert(paymentSubscriptions)
    .values({ userId, provider: 'simulado', providerSubscriptionId: id, plan: 'monthly', state: 'ACTIVA' });
  return id;
}

async function premiumAtSecond() {
  const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
  const subscriptionId = await secondSubscription(user.id);
  await t.app.services.membership.activatePremium(user.id, { subscriptionId, plan: 'monthly', paidAt: new Date() });
  expect(await userRow(user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN', subscriptionId });
  return { cookie, user, subscriptionId };
}

async function premiumAtPayPal() {
  const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
  const start = await api(cookie, '/api/payments/subscriptions', { plan: 'monthly', returnTo: 'profile' });
  expect(start.statusCode).toBe(200);
  const { subscriptionId } = start.json() as { subscriptionId: string };
  fake.approve(subscriptionId);
  const hook = fake.webhook('BILLING.SUBSCRIPTION.ACTIVATED', { id: subscriptionId, status: 'ACTIVE' });
  await t.app.inject({
    method: 'POST',
    url: '/api/payments/webhooks/paypal',
    headers: hook.headers,
    payload: hook.rawBody,
  });
  await t.app.services.jobs.runDue();
  expect(await userRow(user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN', subscriptionId });
  return { cookie, user, subscriptionId };
}

describe('downgrade and reactivation reach the provider that holds the subscription', () => {
  it('suspends and resumes a second provider’s subscription there, never asking PayPal', async () => {
    const { cookie, user, subscriptionId } = await premiumAtSecond();
    expect((await api(cookie, '/api/membership/downgrade')).statusCode).toBe(200);
    expect(await secondStatus(subscriptionId)).toBe('SUSPENDED');
    expect(secondCalls).toContain(`suspend ${subscriptionId}`);
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ state: 'SUSPENDIDA' });
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'POR_TERMINAR' });

    expect((await api(cookie, '/api/membership/reactivate')).statusCode).toBe(200);
    expect(await secondStatus(subscriptionId)).toBe('ACTIVE');
    expect(secondCalls).toContain(`activate ${subscriptionId}`);
    expect(await userRow(user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN' });
    expect(paypalAskedAbout(subscriptionId)).toBe(false);
  });

  it('suspends and resumes a PayPal subscription at PayPal, never calling the second provider', async () => {
    const { cookie, subscriptionId } = await premiumAtPayPal();
    expect((await api(cookie, '/api/membership/downgrade')).statusCode).toBe(200);
    expect(fake.subscriptions.get(subscriptionId)!.status).toBe('SUSPENDED');
    expect((await api(cookie, '/api/membership/reactivate')).statusCode).toBe(200);
    expect(fake.subscriptions.get(subscriptionId)!.status).toBe('ACTIVE');
    expect(secondCalls).toEqual([]);
  });

  it('cancels a live subscription left at the other provider on a downgrade, each at its own', async () => {
    const { cookie, user, subscriptionId } = await premiumAtPayPal();
    const leftOver = await secondSubscription(user.id);
    expect((await api(cookie, '/api/membership/downgrade')).statusCode).toBe(200);
    expect(fake.subscriptions.get(subscriptionId)!.status).toBe('SUSPENDED');
    expect(await secondStatus(leftOver)).toBe('CANCELLED');
    expect(await subscriptionRow(leftOver)).toMatchObject({ state: 'CANCELADA' });
    expect(secondCalls).toEqual([`cancel ${leftOver}`]);
    expect(paypalAskedAbout(leftOver)).toBe(false);
  });

  it('counts a subscription cancelled at its own provider as a completed downgrade, asking only that one', async () => {
    const { cookie, user, subscriptionId } = await premiumAtSecond();
    // cancelled at the provider itself (its dashboard), and we never heard of it
    await second.cancelSubscription(subscriptionId, 'prueba');
    expect((await api(cookie, '/api/membership/downgrade')).statusCode).toBe(200);
    expect(secondCalls).toEqual([`get ${subscriptionId}`]);
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ state: 'CANCELADA' });
    expect(await userRow(user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'POR_TERMINAR' });
    expect(paypalAskedAbout(subscriptionId)).toBe(false);
  });

  it('ends a second provider’s suspended subscription there when the paid period is over', async () => {
    const { cookie, user, subscriptionId } = await premiumAtSecond();
    expect((await api(cookie, '/api/membership/downgrade')).statusCode).toBe(200);
    await t.db
      .update(users)
      .set({ terminationDate: new Date(Date.now() - 1000) })
      .where(eq(users.id, user.id));
    expect(await t.app.services.membership.applyDueChanges(user.id)).toBe(true);
    expect(await secondStatus(subscriptionId)).toBe('CANCELLED');
    expect(await subscriptionRow(subscriptionId)).toMatchObject({ state: 'CANCELADA' });
    expect(paypalAskedAbout(subscriptionId)).toBe(false);
  });
});

describe('an account deletion cancels each live subscription at its provider', () => {
  const remove = (cookie: string) =>
    api(cookie, '/api/privacy/delete-account', { password: testPassword, certificates: 'keep' });

  it('cancels the second provider’s subscription there, and PayPal’s at PayPal', async () => {
    const atSecond = await premiumAtSecond();
    expect((await remove(atSecond.cookie)).statusCode).toBe(204);
    expect(await secondStatus(atSecond.subscriptionId)).toBe('CANCELLED');
    expect(await subscriptionRow(atSecond.subscriptionId)).toMatchObject({ state: 'CANCELADA' });
    expect(paypalAskedAbout(atSecond.subscriptionId)).toBe(false);

    secondCalls.length = 0;
    const atPayPal = await premiumAtPayPal();
    expect((await remove(atPayPal.cookie)).statusCode).toBe(204);
    expect(fake.subscriptions.get(atPayPal.subscriptionId)!.status).toBe('CANCELLED');
    expect(secondCalls).toEqual([]);
  });

  it('stops the deletion when the holding provider refuses to cancel', async () => {
    const { cookie, user, subscriptionId } = await premiumAtSecond();
    const original = second.cancelSubscription;
    second.cancelSubscription = async () => {
      throw new Error('proveedor caído');
    };
    try {
      const response = await remove(cookie);
      expect(response.json()).toMatchObject({ code: 'ACCOUNT_DELETE_PROVIDER_REFUSED' });
    } finally {
      second.cancelSubscription = original;
    }
    expect(await userRow(user.id)).toMatchObject({ anonymizedAt: null, subscriptionId });
    expect(await secondStatus(subscriptionId)).toBe('ACTIVE');
    expect(paypalAskedAbout(subscriptionId)).toBe(false);
  });
});

describe('the daily reconciliation', () => {
  it('reads PayPal’s subscriptions at PayPal and leaves the second provider’s alone', async () => {
    const atSecond = await premiumAtSecond();
    const atPayPal = await premiumAtPayPal();
    fake.subscriptions.get(atPayPal.subscriptionId)!.status = 'CANCELLED';
    await t.app.services.payments.reconcileLiveSubscriptions();
    expect(await userRow(atPayPal.user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'POR_TERMINAR' });
    expect(await subscriptionRow(atSecond.subscriptionId)).toMatchObject({ state: 'ACTIVA', supersededAt: null });
    expect(await userRow(atSecond.user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN' });
    expect(paypalAskedAbout(atSecond.subscriptionId)).toBe(false);
  });
});
