import { sql } from 'drizzle-orm';
import { bigint, boolean, index, pgEnum, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { certificateChoices, consentKinds, dataExportStatuses } from '#shared/privacy/privacy.rules.ts';
import { users } from './accounts.ts';

export const consentKindEnum = pgEnum('consent_kind', consentKinds);
export const dataExportStatusEnum = pgEnum('data_export_status', dataExportStatuses);
export const certificateChoiceEnum = pgEnum('certificate_choice', certificateChoices);

/** Every consent given or withdrawn, with when and how (LFPDPPP: the member can see it). */
export const consentEvents = pgTable(
  'consent_events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: consentKindEnum('kind').notNull(),
    given: boolean('given').notNull(),
    source: text('source').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('consent_events_user_id_idx').on(table.userId, table.at)],
);

/** A member's 'Descargar mis datos' requests; the ZIP lives in the file store under a private key. */
export const dataExports = pgTable(
  'data_exports',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: dataExportStatusEnum('status').notNull().default('PENDIENTE'),
    storageKey: text('storage_key'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    requestedAt: timestamp('requested_at', { withTimezone: true }).notNull().defaultNow(),
    readyAt: timestamp('ready_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    error: text('error'),
  },
  (table) => [
    index('data_exports_user_id_idx').on(table.userId, table.requestedAt),
    // two requests at once make one export
    uniqueIndex('data_exports_one_pending_idx')
      .on(table.userId)
      .where(sql`${table.status} = 'PENDIENTE'`),
    index('data_exports_expires_at_idx')
      .on(table.expiresAt)
      .where(sql`${table.status} = 'LISTA'`),
  ],
);

/** Who deleted an account, when and why: the member themself, or an Admin on request. */
export const accountDeletions = pgTable('account_deletions', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: text('user_id')
    .notNull()
    .unique()
    .references(() => users.id, { onDelete: 'cascade' }),
  actorId: text('actor_id').references(() => users.id, { onDelete: 'set null' }),
  bySelf: boolean('by_self').notNull(),
  reason: text('reason').notNull().default(''),
  certificates: certificateChoiceEnum('certificates').notNull(),
  cancelledSubscriptionId: text('cancelled_subscription_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
