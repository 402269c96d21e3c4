import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Files uploaded from a console form but not yet saved into a record; swept when abandoned. */
export const pendingUploads = pgTable(
  'pending_uploads',
  {
    key: text('key').primaryKey(),
    kind: text('kind').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('pending_uploads_created_at_idx').on(table.createdAt)],
);
