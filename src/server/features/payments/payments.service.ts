import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { paymentSubscriptions, paymentWebhookEvents, payments } from '#server/db/schema/index.ts';
import type { PaymentProvider, WebhookEvent } from '#server/services/payments/payment-provider.ts';
import type { MembershipService } from '#server/features/membership/membership.service.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import { AppError } from '#shared/errors.ts';
import type { Plan } from '#shared/payments/payments.rules.ts';
import type { PaymentRecord } from '#shared/payments/payments.schemas.ts';
import { stateByProviderStatus, subscriptionOutcome } from './payments.rules.ts';

type Log = { warn(obj: object, msg: string): void; error(obj: object, msg: string): void };

const planDescription: Record<Plan, string> = { monthly: 'Premium mensual', annual: 'Premium anual' };

/** Subscriptions and orders through the configured provider; access follows only what the provider confirms. */
export function createPaymentsService(deps: {
  db: Db;
  provider: PaymentProvider;
  membership: MembershipService;
  publicUrl: string;
  log?: Log;
  /** Queues a verified order event for the job runner (diploma purchases); stored before the webhook is acknowledged. */
  onOrderEvent?: (event: { eventId: string; orderId: string; eventType: string }) => Promise<void>;
}) {
  const { db, provider, membership, publicUrl } = deps;
  const log = deps.log ?? { warn() {}, error() {} };

  function returnUrls(returnTo: 'signup' | 'profile', plan: Plan) {
    if (returnTo === 'signup') {
      const back = new URL('/registro-finalizar', publicUrl);
      back.searchParams.set('plan', plan);
      const cancel = new URL(back);
      cancel.searchParams.set('pago', 'cancelado');
      return { returnUrl: back.toString(), cancelUrl: cancel.toString() };
    }
    const back = new URL('/perfil', publicUrl);
    const cancel = new URL(back);
    cancel.searchParams.set('pago', 'cancelado');
    return { returnUrl: back.toString(), cancelUrl: cancel.toString() };
  }

  /** Starts a Premium subscription for a Basic member; the browser goes to approvalUrl. */
  async function startSubscription(user: UserRow, input: { plan: Plan; returnTo: 'signup' | 'profile' }) {
    if (user.type !== 'Gratis' || user.paymentStatus === 'POR_TERMINAR') throw new AppError('MEMBERSHIP_CHANGE_NOT_ALLOWED');
    let created: { id: string; approvalUrl: string };
    try {
      created = await provider.createSubscription({ plan: input.plan, customId: user.id, ...returnUrls(input.returnTo, input.plan) });
    } catch (error) {
      log.error({ err: error }, 'subscription creation failed');
      throw new AppError('SUBSCRIPTION_CREATE_FAILED');
    }
    await db.insert(paymentSubscriptions).values({
      userId: user.id,
      provider: provider.name,
      providerSubscriptionId: created.id,
      plan: input.plan,
      state: 'PENDIENTE',
    });
    return { subscriptionId: created.id, approvalUrl: created.approvalUrl };
  }

  /**
   * Reads the provider's record of one subscription and applies what it says: payments into the
   * history, then the membership outcome. Idempotent, and the same whatever the event order.
   */
  async function reconcileSubscription(providerSubscriptionId: string): Promise<{ state: string; outcome: string } | null> {
    const [row] = await db
      .select()
      .from(paymentSubscriptions)
      .where(and(eq(paymentSubscriptions.providerSubscriptionId, providerSubscriptionId), eq(paymentSubscriptions.provider, provider.name)));
    if (!row) return null;
    const snapshot = await provider.getSubscription(providerSubscriptionId);
    if (!snapshot) return { state: row.state, outcome: 'none' };
    // a subscription must carry the user it was created for
    if (snapshot.customId !== null && snapshot.customId !== row.userId) {
      log.warn({ providerSubscriptionId }, 'subscription custom_id does not match its owner');
      return { state: row.state, outcome: 'none' };
    }
    const plan = snapshot.plan ?? row.plan;
    const state = stateByProviderStatus[snapshot.status];
    if (state !== row.state) {
      await db.update(paymentSubscriptions).set({ state, updatedAt: new Date() }).where(eq(paymentSubscriptions.id, row.id));
    }
    if (snapshot.status !== 'APPROVAL_PENDING' && snapshot.status !== 'APPROVED') {
      const transactions = await provider.listTransactions(providerSubscriptionId);
      if (transactions.length > 0) {
        await db
          .insert(payments)
          .values(
            transactions.map((tx) => ({
              userId: row.userId,
              provider: provider.name,
              providerPaymentId: tx.id,
              kind: 'subscription' as const,
              result: tx.result,
              amountCents: tx.amountCents,
              currency: tx.currency,
              description: planDescription[plan],
              occurredAt: tx.time,
            })),
          )
          .onConflictDoUpdate({ target: payments.providerPaymentId, set: { result: sql`excluded.result` } });
      }
    }
    const outcome = subscriptionOutcome({ ...snapshot, plan });
    if (outcome === 'activate') {
      await membership.activatePremium(row.userId, { subscriptionId: providerSubscriptionId, plan, paidAt: snapshot.lastPayment!.time });
    } else if (outcome === 'fail') {
      await membership.markPaymentFailed(row.userId, providerSubscriptionId);
    } else if (outcome === 'cancel') {
      await membership.markCancelled(row.userId, providerSubscriptionId);
    }
    return { state, outcome };
  }

  /** The browser came back from the provider: nothing is granted unless the provider confirms it. */
  async function confirmSubscription(user: UserRow, providerSubscriptionId: string) {
    const [row] = await db
      .select()
      .from(paymentSubscriptions)
      .where(and(eq(paymentSubscriptions.providerSubscriptionId, providerSubscriptionId), eq(paymentSubscriptions.userId, user.id)));
    if (!row) throw new AppError('NOT_FOUND');
    const result = await reconcileSubscription(providerSubscriptionId);
    const fresh = await membership.findUser(user.id);
    return { state: result?.state ?? row.state, isPremium: fresh?.type === 'Premium' };
  }

  /** Stores a verified webhook, then applies it once per event id, however many times it arrives. */
  async function receiveWebhook(event: WebhookEvent): Promise<'applied' | 'duplicate'> {
    // queued first: a crash after this line still ends with the order applied, and the handler is idempotent
    if (event.target?.kind === 'order' && deps.onOrderEvent) {
      await deps.onOrderEvent({ eventId: event.id, orderId: event.target.id, eventType: event.type });
    }
    await db
      .insert(paymentWebhookEvents)
      .values({ id: event.id, provider: provider.name, type: event.type, payload: event.payload as object })
      .onConflictDoNothing();
    const claimed = await db
      .update(paymentWebhookEvents)
      .set({ processedAt: new Date(), error: null })
      .where(and(eq(paymentWebhookEvents.id, event.id), isNull(paymentWebhookEvents.processedAt)))
      .returning({ id: paymentWebhookEvents.id });
    if (claimed.length === 0) return 'duplicate';
    try {
      if (event.target?.kind === 'subscription') await reconcileSubscription(event.target.id);
      return 'applied';
    } catch (error) {
      // released so that the provider's next retry applies it
      await db
        .update(paymentWebhookEvents)
        .set({ processedAt: null, error: error instanceof Error ? error.message : String(error) })
        .where(eq(paymentWebhookEvents.id, event.id));
      throw error;
    }
  }

  /** Starts a one-off payment (e.g. a diploma purchase); verify it with captureVerifiedOrder. */
  async function startOrder(user: UserRow, input: { amountCents: number; description: string; returnUrl: string; cancelUrl: string }) {
    try {
      return await provider.createOrder({ ...input, customId: user.id });
    } catch (error) {
      log.error({ err: error }, 'order creation failed');
      throw new AppError('SUBSCRIPTION_CREATE_FAILED');
    }
  }

  /** Captures an approved order after checking with the provider that it is this user's and for this amount. */
  async function captureVerifiedOrder(user: UserRow, orderId: string, expected: { amountCents: number; description: string }) {
    const order = await provider.getOrder(orderId);
    if (!order || order.customId !== user.id || order.amountCents !== expected.amountCents) throw new AppError('FORBIDDEN');
    const captured = order.status === 'COMPLETED' ? order : await provider.captureOrder(orderId);
    if (captured.status !== 'COMPLETED' || !captured.captureId) throw new AppError('FORBIDDEN');
    await db
      .insert(payments)
      .values({
        userId: user.id,
        provider: provider.name,
        providerPaymentId: captured.captureId,
        kind: 'order',
        result: 'COMPLETADO',
        amountCents: captured.amountCents,
        description: expected.description,
      })
      .onConflictDoNothing();
    return captured;
  }

  /** A member's payment history, newest first. */
  async function history(userId: string): Promise<PaymentRecord[]> {
    const rows = await db.select().from(payments).where(eq(payments.userId, userId)).orderBy(desc(payments.occurredAt)).limit(200);
    return rows.map((row) => ({
      id: row.id,
      provider: row.provider,
      kind: row.kind,
      result: row.result,
      amountCents: row.amountCents,
      currency: row.currency,
      description: row.description,
      occurredAt: row.occurredAt.toISOString(),
    }));
  }

  return { provider, startSubscription, reconcileSubscription, confirmSubscription, receiveWebhook, startOrder, captureVerifiedOrder, history };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
