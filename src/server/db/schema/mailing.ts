import { index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';

/** Every mail the site sends when no SMTP server is configured, and a log otherwise. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('mail_outbox_to_idx').on(table.to, table.createdAt)],
);

export const bulkMails = pgTable('bulk_mails', {
  id: uuid('id').primaryKey().defaultRandom(),
  subject: text('subject').notNull(),
  title: text('title').notNull(),
  message: text('message').notNull().default(''),
  image: text('image'),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  recipientCount: integer('recipient_count').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
});

/** One row per recipient, so a restart never mails anyone twice. */
export const bulkMailDeliveries = pgTable(
  'bulk_mail_deliveries',
  {
    bulkMailId: uuid('bulk_mail_id')
      .notNull()
      .references(() => bulkMails.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    attempts: integer('attempts').notNull().default(0),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    lastError: text('last_error'),
  },
  (table) => [primaryKey({ columns: [table.bulkMailId, table.userId] })],
);

export const reportExports = pgTable('report_exports', {
  id: uuid('id').primaryKey().defaultRandom(),
  requestedBy: text('requested_by').references(() => users.id, { onDelete: 'set null' }),
  rowCount: integer('row_count'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
