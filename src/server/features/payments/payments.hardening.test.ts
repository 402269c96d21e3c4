import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, createTestDatabase, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { loginCookie, signedInAs } from '#server/testing/factories.ts';
import { seedDemo } from '#server/db/seed/demo.ts';
import { demoAccounts, demoPassword } from '#server/db/seed/demo-accounts.ts';
import {
  jobs,
  mailOutbox,
  paymentSubscriptions,
  paymentWebhookEvents,
  payments,
  users,
} from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import type { OrderEvent } from './payments-orders.ts';
import {
  captureWebhooks,
  pressCheckout,
  settle,
  simulator,
  startSubscription,
  subscribeAndApprove,
} from './payments.testing.ts';

let t: TestApp;
const orderEvents: OrderEvent[] = [];

// two apps on one database (a restart) take a while on a busy machine
const restartTimeout = { timeout: 180_000 };

beforeAll(async () => {
  t = await createTestApp();
  t.app.services.payments.onOrder(async (event) => void orderEvents.push(event));
}, 180_000);
afterAll(async () => t.close());

const userRow = async (app: TestApp, id: string) => (await app.db.select().from(users).where(eq(users.id, id)))[0]!;
const providerStatus = async (app: TestApp, id: string) => (await simulator(app).describe('subscription', id))?.status;
const downgrade = (app: TestApp, cookie: string) =>
  app.app.inject({ method: 'POST', url: '/api/membership/downgrade', headers: { cookie, origin: testPublicUrl } });
const start = (cookie: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/payments/subscriptions',
    headers: { cookie, origin: testPublicUrl },
    payload: { plan: 'monthly' },
  });

describe('one live provider subscription per account', () => {
  it('cancels the first checkout when it is approved after a second one already made the member Premium', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    const first = await startSubscription(t, cookie);
    // the member opens a second tab and pays there
    const second = await subscribeAndApprove(t, cookie);
    expect(await userRow(t, user.id)).toMatchObject({ type: 'Premium', subscriptionId: second });
    // then approves the forgotten first tab: PayPal would charge it every month
    await pressCheckout(t, first.subscriptionId, 'approve');
    expect(await providerStatus(t, first.subscriptionId)).toBe('CANCELLED');
    expect(await userRow(t, user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN', subscriptionId: second });
    // the downgrade stops the one that is left: nothing charges the member any more
    expect((await downgrade(t, cookie)).statusCode).toBe(200);
    expect(await providerStatus(t, second)).toBe('SUSPENDED');
    const rows = await t.db.select().from(paymentSubscriptions).where(eq(paymentSubscriptions.userId, user.id));
    expect(rows.map((row) => row.state).sort()).toEqual(['CANCELADA', 'SUSPENDIDA']);
  });

  it('cancels with the provider a subscription left live by a failed renewal before starting a new one', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    const old = await subscribeAndApprove(t, cookie);
    await pressCheckout(t, old, 'renew-fail');
    expect(await userRow(t, user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'FALLIDO' });
    expect(await providerStatus(t, old)).toBe('ACTIVE');
    const fresh = await startSubscription(t, cookie);
    expect(await providerStatus(t, old)).toBe('CANCELLED');
    await pressCheckout(t, fresh.subscriptionId, 'approve');
    expect(await userRow(t, user.id)).toMatchObject({
      type: 'Premium',
      paymentStatus: 'BIEN',
      subscriptionId: fresh.subscriptionId,
    });
  });

  it('refuses a new checkout while the first one has been approved and is being paid', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    const first = await startSubscription(t, cookie);
    // PayPal's APPROVED: the buyer agreed, the first payment has not cleared yet
    await t.db.execute(
      sql`update simulated_provider_records set data = jsonb_set(data, '{status}', '"APPROVED"') where id = ${first.subscriptionId}`,
    );
    const second = await start(cookie);
    expect(second.statusCode).toBe(409);
    expect(second.json().code).toBe('SUBSCRIPTION_CHECKOUT_IN_PROGRESS');
    const rows = await t.db.select().from(paymentSubscriptions).where(eq(paymentSubscriptions.userId, user.id));
    expect(rows).toHaveLength(1);
  });

  it('leaves one checkout in progress when two start at the same moment', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    const responses = await Promise.all([start(cookie), start(cookie), start(cookie)]);
    // the later one supersedes the earlier, or is refused if they collide
    for (const response of responses) expect([200, 409]).toContain(response.statusCode);
    expect(responses.some((response) => response.statusCode === 200)).toBe(true);
    const live = await t.db
      .select()
      .from(paymentSubscriptions)
      .where(sql`${paymentSubscriptions.userId} = ${user.id} and ${paymentSubscriptions.supersededAt} is null`);
    expect(live).toHaveLength(1);
  });
});

describe('refunds', () => {
  it('end Premium at the refund, record it in the history and stop the subscription', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Gratis' });
    const subscriptionId = await subscribeAndApprove(t, cookie);
    await pressCheckout(t, subscriptionId, 'refund');
    expect(await userRow(t, user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'CANCELLED' });
    expect(await providerStatus(t, subscriptionId)).toBe('CANCELLED');
    const history = await t.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(history.map((row) => row.result)).toEqual(['REEMBOLSADO']);
  });
});

describe('webhooks through the job runner', () => {
  it('are applied once after a crash between storing and applying, by the next process', restartTimeout, async () => {
    const database = await createTestDatabase();
    const before = await createTestApp({}, { database });
    const { cookie, user } = await signedInAs(before, { type: 'Gratis' });
    const { subscriptionId } = await startSubscription(before, cookie);
    // the process dies while applying: the provider cannot be read
    const provider = simulator(before);
    const read = provider.getSubscription.bind(provider);
    provider.getSubscription = async () => {
      throw new Error('proceso terminado');
    };
    await pressCheckout(before, subscriptionId, 'approve');
    provider.getSubscription = read;
    expect(await userRow(before, user.id)).toMatchObject({ type: 'Gratis' });
    const stored = await before.db.select().from(paymentWebhookEvents);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.every((event) => event.processedAt === null)).toBe(true);
    await before.close();

    // a new process on the same database; the failed jobs' backoff has passed
    const after = await createTestApp({}, { database });
    await after.db
      .update(jobs)
      .set({ runAt: new Date(Date.now() - 1000) })
      .where(sql`${jobs.doneAt} is null`);
    await settle(after);
    expect(await userRow(after, user.id)).toMatchObject({ type: 'Premium', paymentStatus: 'BIEN', subscriptionId });
    expect(await after.db.select().from(payments).where(eq(payments.userId, user.id))).toHaveLength(1);
    const mails = await after.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email));
    expect(mails.map((mail) => mail.subject)).toEqual(['Tu membresía CxVet ahora es Premium']);
    expect((await after.db.select().from(paymentWebhookEvents)).every((event) => event.processedAt !== null)).toBe(
      true,
    );
    // running the jobs again changes nothing
    await after.db
      .update(jobs)
      .set({ runAt: new Date(Date.now() - 1000) })
      .where(sql`${jobs.doneAt} is null`);
    await settle(after);
    expect(await after.db.select().from(mailOutbox).where(eq(mailOutbox.to, user.email))).toHaveLength(1);
    await after.close();
    await database.close();
    await database.drop();
  });

  it('are answered 200 once stored, before they are applied', async () => {
    const { cookie } = await signedInAs(t, { type: 'Gratis' });
    const capture = captureWebhooks(t);
    const { subscriptionId } = await startSubscription(t, cookie);
    await pressCheckout(t, subscriptionId, 'approve');
    capture.restore();
    const activated = capture.captured.find((each) => each.type === 'BILLING.SUBSCRIPTION.ACTIVATED')!;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/payments/webhooks/simulado',
      headers: activated.headers,
      payload: activated.rawBody,
    });
    expect(response.json()).toEqual({ received: true, outcome: 'stored' });
    const eventId = JSON.parse(activated.rawBody).id as string;
    const [queued] = await t.db
      .select()
      .from(jobs)
      .where(eq(jobs.uniqueKey, `webhook:${eventId}`));
    expect(queued).toBeDefined();
    await settle(t);
  });
});

describe('simulated subscriptions after a restart', () => {
  it('still let a member who paid downgrade, and reactivate', restartTimeout, async () => {
    const database = await createTestDatabase();
    const before = await createTestApp({}, { database });
    const { cookie, user } = await signedInAs(before, { type: 'Gratis' });
    const subscriptionId = await subscribeAndApprove(before, cookie);
    await before.close();

    const after = await createTestApp({}, { database });
    const response = await downgrade(after, cookie);
    expect(response.statusCode).toBe(200);
    expect(await userRow(after, user.id)).toMatchObject({ type: 'Gratis', paymentStatus: 'POR_TERMINAR' });
    expect(await providerStatus(after, subscriptionId)).toBe('SUSPENDED');
    const back = await after.app.inject({
      method: 'POST',
      url: '/api/membership/reactivate',
      headers: { cookie, origin: testPublicUrl },
    });
    expect(back.statusCode).toBe(200);
    expect(await providerStatus(after, subscriptionId)).toBe('ACTIVE');
    await after.close();
    await database.close();
    await database.drop();
  });
});

describe('the seeded Premium member (item 2)', () => {
  it(
    'can downgrade, also after a restart, because the simulated provider knows the demo subscription',
    restartTimeout,
    async () => {
      const database = await createTestDatabase();
      const first = await createTestApp({}, { database });
      await seedDemo({ database: first.database, storage: first.storage, accounts: first.app.services.accounts });
      await first.close();
      const after = await createTestApp({}, { database });
      const premium = demoAccounts.find((account) => account.type === 'Premium')!;
      const cookie = await loginCookie(after, premium.email, demoPassword);
      const response = await downgrade(after, cookie);
      expect(response.statusCode).toBe(200);
      expect(response.json().membership).toMatchObject({ type: 'Gratis', paymentStatus: 'POR_TERMINAR' });
      expect(await providerStatus(after, 'DEMO-SUB')).toBe('SUSPENDED');
      await after.close();
      await database.close();
      await database.drop();
    },
  );
});

describe('orders (one-off payments) through the simulated provider', () => {
  const startOrder = async (userId: string, reference: string) => {
    const user = await userRow(t, userId);
    return t.app.services.payments.startOrder(user, {
      amountCents: 150_000,
      description: `Diplomado de prueba ${'con un nombre muy largo '.repeat(8)}`,
      returnUrl: `${testPublicUrl}/diplomados/ok`,
      cancelUrl: `${testPublicUrl}/diplomados/no`,
      reference,
    });
  };
  const pressOrder = (id: string, action: Parameters<typeof pressCheckout>[2]) => pressCheckout(t, id, action, 'orden');
  const eventsOf = (orderId: string) =>
    orderEvents.filter((event) => event.orderId === orderId).map((event) => event.kind);

  it('capture once after approval, and tell the order handlers it completed', async () => {
    const { user } = await signedInAs(t, { type: 'Gratis' });
    const order = await startOrder(user.id, 'diploma-1');
    const row = await userRow(t, user.id);
    await expect(
      t.app.services.payments.captureVerifiedOrder(row, order.id, { amountCents: 150_000, description: 'Diplomado' }),
    ).rejects.toThrow(AppError);
    await pressOrder(order.id, 'approve');
    const captured = await t.app.services.payments.captureVerifiedOrder(row, order.id, {
      amountCents: 150_000,
      description: 'Diplomado',
    });
    expect(captured).toMatchObject({ status: 'COMPLETED', captureStatus: 'COMPLETED' });
    await settle(t);
    expect(eventsOf(order.id)).toEqual(['completed']);
    expect(orderEvents.find((event) => event.orderId === order.id)).toMatchObject({
      userId: user.id,
      amountCents: 150_000,
      reference: 'diploma-1',
    });
    const history = await t.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(history).toMatchObject([{ kind: 'order', result: 'COMPLETADO', amountCents: 150_000 }]);
  });

  it('refuse a capture for another member or another amount', async () => {
    const { user } = await signedInAs(t, { type: 'Gratis' });
    const other = await signedInAs(t, { type: 'Gratis' });
    const order = await startOrder(user.id, 'diploma-2');
    await pressOrder(order.id, 'approve');
    const capture = (userId: string, amountCents: number) =>
      userRow(t, userId).then((row) =>
        t.app.services.payments.captureVerifiedOrder(row, order.id, { amountCents, description: 'x' }),
      );
    await expect(capture(other.user.id, 150_000)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(capture(user.id, 100)).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('keep a pending capture pending, and complete it through the webhook when the provider settles it', async () => {
    const { user } = await signedInAs(t, { type: 'Gratis' });
    const order = await startOrder(user.id, 'diploma-3');
    await pressOrder(order.id, 'approve-pending');
    const row = await userRow(t, user.id);
    await expect(
      t.app.services.payments.captureVerifiedOrder(row, order.id, { amountCents: 150_000, description: 'Diplomado' }),
    ).rejects.toMatchObject({
      code: 'PAYMENT_PENDING',
    });
    await settle(t);
    expect(eventsOf(order.id)).toEqual(['pending']);
    await pressOrder(order.id, 'capture-complete');
    expect(eventsOf(order.id)).toEqual(['pending', 'completed']);
    const history = await t.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(history.map((each) => each.result)).toEqual(['COMPLETADO']);
  });

  it('tell the handlers a pending capture was denied, and a completed one refunded', async () => {
    const { user } = await signedInAs(t, { type: 'Gratis' });
    const denied = await startOrder(user.id, 'diploma-4');
    // the browser never comes back: the approval webhook captures it
    await pressOrder(denied.id, 'approve-pending');
    await pressOrder(denied.id, 'capture-deny');
    expect(eventsOf(denied.id)).toEqual(['pending', 'denied']);
    const refunded = await startOrder(user.id, 'diploma-5');
    await pressOrder(refunded.id, 'approve');
    expect(eventsOf(refunded.id)).toEqual(['completed']);
    await pressOrder(refunded.id, 'refund');
    expect(eventsOf(refunded.id)).toEqual(['completed', 'refunded']);
  });
});
