import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import {
  paymentKindEnum,
  paymentProviderEnum,
  paymentResultEnum,
  planEnum,
  subscriptionStateEnum,
} from './enums.ts';
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
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('payment_subscriptions_user_id_idx').on(table.userId)],
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
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('payments_user_id_idx').on(table.userId, table.occurredAt)],
);

/** Webhooks are stored before they are acknowledged and applied once per event id. */
export const paymentWebhookEvents = pgTable('payment_webhook_events', {
  id: text('id').primaryKey(),
  provider: paymentProviderEnum('provider').notNull(),
  type: text('type').notNull(),
  payload: jsonb('payload').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  processedAt: timestamp('processed_at', { withTimezone: true }),
  error: text('error'),
});
