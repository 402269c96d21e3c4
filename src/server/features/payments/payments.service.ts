import { desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { paymentWebhookEvents, payments } from '#server/db/schema/index.ts';
import { applyStoredEvent } from './stored-webhook.ts';
import { webhookTarget, type PaymentProvider, type WebhookEvent } from '#server/services/payments/payment-provider.ts';
import type { MembershipService } from '#server/features/membership/membership.service.ts';
import type { PaymentRecord } from '#shared/payments/payments.schemas.ts';
import { providerFailureLogger, type PaymentsLog } from './payments-log.ts';
import { createPaymentOrders, type OrderEventHandler } from './payments-orders.ts';
import { createPaymentSubscriptions } from './payments-subscriptions.ts';
import type { RefundListener } from './payments-history.ts';

/** The job that applies a stored webhook event. */
export const webhookJobKind = 'payments.webhook';
/** The daily job that reads every live subscription once and repairs what drifted from the provider's record. */
export const reconcileJobKind = 'payments.reconcile';
/** Schedules a job inside the caller's transaction (the job runner's schedule). */
type Schedule = (kind: string, options: { payload: object; uniqueKey: string; tx: Db }) => Promise<void>;

/** Subscriptions and orders through the configured provider; access follows only what the provider confirms. */
export function createPaymentsService(deps: {
  db: Db;
  provider: PaymentProvider;
  membership: MembershipService;
  publicUrl: string;
  /** Where stored webhook events are queued; applied by applyStoredWebhook. */
  schedule: Schedule;
  onOrderEvent?: OrderEventHandler;
  /** A payment in dollars refunded at the provider (a factura the Admin issued for it is cancelled). */
  onRefunded?: RefundListener;
  log?: PaymentsLog;
}) {
  const { db, provider } = deps;
  const log = deps.log ?? { warn() {}, error() {} };
  const logProviderFailure = providerFailureLogger(log);
  const subscriptions = createPaymentSubscriptions({ ...deps, log, logProviderFailure });
  const orders = createPaymentOrders({ ...deps, log, logProviderFailure });
  const { reconcileSubscription, reconcileSale } = subscriptions;
  const { reconcileOrder, reconcileCapture } = orders;

  /**
   * Stores a verified webhook and queues the job that applies it, in one transaction: once the
   * provider has its 200, the event is on disk and will be applied even if we crash right after.
   */
  async function receiveWebhook(event: WebhookEvent, transmissionId?: string): Promise<'stored' | 'duplicate'> {
    return db.transaction(async (tx) => {
      const stored = await tx
        .insert(paymentWebhookEvents)
        .values({
          id: event.id,
          provider: provider.name,
          type: event.type,
          payload: event.payload as object,
          transmissionId: transmissionId || null,
        })
        .onConflictDoNothing()
        .returning({ id: paymentWebhookEvents.id });
      if (stored.length === 0) return 'duplicate';
      await deps.schedule(webhookJobKind, { payload: { eventId: event.id }, uniqueKey: `webhook:${event.id}`, tx });
      return 'stored';
    });
  }

  /** A delivery whose transmission id is stored already: a replay, answered without asking the provider. */
  async function isKnownTransmission(transmissionId: string): Promise<boolean> {
    const [row] = await db
      .select({ id: paymentWebhookEvents.id })
      .from(paymentWebhookEvents)
      .where(eq(paymentWebhookEvents.transmissionId, transmissionId));
    return Boolean(row);
  }

  /**
   * The job: applies one stored event by reading the provider's record it names; only then is it
   * processed. Running it twice (a crash after applying, a retry) changes nothing more.
   */
  async function applyStoredWebhook(eventId: string): Promise<'applied' | 'already'> {
    return applyStoredEvent(
      db,
      eventId,
      async (row) => {
        const target = webhookTarget(row.payload as { event_type?: unknown; resource?: unknown });
        if (target?.kind === 'subscription') await reconcileSubscription(target.id);
        else if (target?.kind === 'sale') await reconcileSale(target.id);
        else if (target?.kind === 'order') await reconcileOrder(target.id);
        else if (target?.kind === 'capture') await reconcileCapture(target.id);
      },
      (error, row) => logProviderFailure(error, 'webhook event not applied yet', { eventId, type: row.type }),
    );
  }

  /** A member's payment history, newest first. */
  async function history(userId: string): Promise<PaymentRecord[]> {
    const rows = await db
      .select()
      .from(payments)
      .where(eq(payments.userId, userId))
      .orderBy(desc(payments.occurredAt))
      .limit(200);
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

  /** Events stored but not applied yet (e.g. after a crash): their jobs are still queued. */
  async function unprocessedWebhooks() {
    return db
      .select({ id: paymentWebhookEvents.id })
      .from(paymentWebhookEvents)
      .where(isNull(paymentWebhookEvents.processedAt));
  }

  return {
    provider,
    startSubscription: subscriptions.startSubscription,
    reconcileSubscription,
    confirmSubscription: subscriptions.confirmSubscription,
    receiveWebhook,
    isKnownTransmission,
    applyStoredWebhook,
    onOrder: orders.onOrder,
    startOrder: orders.startOrder,
    captureVerifiedOrder: orders.captureVerifiedOrder,
    history,
    unprocessedWebhooks,
    reconcileLiveSubscriptions: subscriptions.reconcileLiveSubscriptions,
  };
}

export type PaymentsService = ReturnType<typeof createPaymentsService>;
