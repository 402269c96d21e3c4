import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { paymentKindEnum, paymentProviderEnum, paymentResultEnum, planEnum, subscriptionStateEnum } from './enums.ts';
import { users } from './accounts.ts';
import { diplomas } from './diplomas.ts';

export const paymentSubscriptions = pgTable(
  'payment_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: paymentProviderEnum('provider').notNull(),
    providerSubscriptionId: text('provider_subscription_id').notNull().unique(),
    plan: planEnum('plan').notNull(),
    state: subscriptionStateEnum('state').notNull().default('PENDIENTE'),
    /** Set when the member started another checkout: this one must never charge (cancelled at the provider when it can be). */
    supersededAt: timestamp('superseded_at', { withTimezone: true }),
    /** PayPal's billing_info.next_billing_time as last read: the end of the paid period (PayPal drops it once suspended or cancelled). */
    nextBillingAt: timestamp('next_billing_at', { withTimezone: true }),
    /** What we asked the provider to charge (Mercado Pago in pesos): a charge of another amount or currency grants nothing. */
    amountCents: integer('amount_cents'),
    currency: text('currency'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('payment_subscriptions_user_id_idx').on(table.userId),
    // one checkout in progress per account: two tabs cannot both start a subscription
    uniqueIndex('payment_subscriptions_one_pending_idx')
      .on(table.userId)
      .where(sql`${table.state} = 'PENDIENTE' and ${table.supersededAt} is null`),
  ],
);

/** Diploma purchase attempts (spec: diplomado transactions). */
export const diplomaTransactions = pgTable(
  'diploma_transactions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    diplomaId: uuid('diploma_id')
      .notNull()
      .references(() => diplomas.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: paymentProviderEnum('provider').notNull(),
    providerOrderId: text('provider_order_id').unique(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('USD'),
    status: text('status').notNull(),
    data: jsonb('data'),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('diploma_transactions_diploma_id_idx').on(table.diplomaId),
    index('diploma_transactions_user_id_idx').on(table.userId, table.diplomaId),
  ],
);

/** Money that moved, as the provider reported it: a member's payment history. */
export const payments = pgTable(
  'payments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: paymentProviderEnum('provider').notNull(),
    providerPaymentId: text('provider_payment_id').notNull().unique(),
    kind: paymentKindEnum('kind').notNull(),
    result: paymentResultEnum('result').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('USD'),
    description: text('description').notNull().default(''),
    /** The provider subscription a recurring payment belongs to (refund notices name only the sale). */
    providerSubscriptionId: text('provider_subscription_id'),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('payments_user_id_idx').on(table.userId, table.occurredAt)],
);

/** Webhooks are stored before they are acknowledged and applied once per event id. */
export const paymentWebhookEvents = pgTable('payment_webhook_events', {
  id: text('id').primaryKey(),
  /** PAYPAL-TRANSMISSION-ID of the delivery stored: a replay of it is dropped before PayPal is asked to verify it. */
  transmissionId: text('transmission_id').unique(),
  provider: paymentProviderEnum('provider').notNull(),
  type: text('type').notNull(),
  payload: jsonb('payload').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  processedAt: timestamp('processed_at', { withTimezone: true }),
  error: text('error'),
});

/**
 * The simulated provider's own records (subscriptions, orders, their charges), kept in the
 * database so that a restart does not forget them: members who paid can still downgrade.
 */
export const simulatedProviderRecords = pgTable('simulated_provider_records', {
  id: text('id').primaryKey(),
  kind: text('kind').notNull(),
  data: jsonb('data').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One-off payments (e.g. a diploma) we asked the provider for: what was asked (amount, currency,
 * reference) is checked against every answer, and `status` is the last outcome handed to the
 * order handlers (CREATED, COMPLETED, PENDING, DENIED, REFUNDED).
 */
export const paymentOrders = pgTable(
  'payment_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: paymentProviderEnum('provider').notNull(),
    providerOrderId: text('provider_order_id').notNull().unique(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('USD'),
    description: text('description').notNull(),
    /** The caller's own key, e.g. the diploma bought; handed back in order events. */
    reference: text('reference'),
    status: text('status').notNull().default('CREATED'),
    captureId: text('capture_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('payment_orders_user_id_idx').on(table.userId),
    // one payment in pesos (Mercado Pago's) waiting for money per member and thing bought: a second request
    // gets the first; keyed on the currency, as the provider enum's newer value cannot be used by a migration
    // run in the transaction that adds it
    uniqueIndex('payment_orders_one_pending_idx')
      .on(table.userId, table.reference)
      .where(sql`${table.currency} = 'MXN' and ${table.status} = 'PENDING' and ${table.reference} is not null`),
  ],
);

/**
 * The Admin's prices of the plans in a currency other than the specs' USD (MXN for Mercado Pago). A subscription
 * keeps the amount it was created with at the provider: a changed price applies to new subscriptions only.
 */
export const planPrices = pgTable(
  'plan_prices',
  {
    plan: planEnum('plan').notNull(),
    currency: text('currency').notNull(),
    amountCents: integer('amount_cents').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.plan, table.currency] })],
);
