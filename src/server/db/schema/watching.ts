import { doublePrecision, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { procedures } from './catalog.ts';

/** Where a member left each full video; one row per member and procedure, written by upsert. */
export const watchPositions = pgTable(
  'watch_positions',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    procedureId: uuid('procedure_id')
      .notNull()
      .references(() => procedures.id, { onDelete: 'cascade' }),
    positionSeconds: doublePrecision('position_seconds').notNull(),
    durationSeconds: doublePrecision('duration_seconds').notNull(),
    // set the first time the member passes 90 % of the video, and kept after that
    watchedAt: timestamp('watched_at', { withTimezone: true }),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.procedureId] }),
    index('watch_positions_user_updated_idx').on(table.userId, table.updatedAt),
  ],
);

/** A member's favourite procedures ('Favoritos'). */
export const favoriteProcedures = pgTable(
  'favorite_procedures',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    procedureId: uuid('procedure_id')
      .notNull()
      .references(() => procedures.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.procedureId] }),
    index('favorite_procedures_user_created_idx').on(table.userId, table.createdAt),
  ],
);
