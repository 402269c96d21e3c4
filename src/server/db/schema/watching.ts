import { sql } from 'drizzle-orm';
import {
  check,
  doublePrecision,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { Span } from '#shared/watching/watched-time.rules.ts';
import { users } from './accounts.ts';
import { procedures } from './catalog.ts';
import { diplomaVideos } from './diplomas.ts';

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

/**
 * Watched time of one member in one video, a catalogue procedure or a diploma's own video: the union of the
 * spans their position saves earned (see watched-time.rules.ts), and the last save each next one is measured from.
 */
export const watchedTime = pgTable(
  'watched_time',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    procedureId: uuid('procedure_id').references(() => procedures.id, { onDelete: 'cascade' }),
    diplomaVideoId: uuid('diploma_video_id').references(() => diplomaVideos.id, { onDelete: 'cascade' }),
    durationSeconds: doublePrecision('duration_seconds').notNull(),
    /** Sorted, non-overlapping [start, end] seconds actually played. */
    spans: jsonb('spans').$type<Span[]>().notNull().default([]),
    watchedSeconds: doublePrecision('watched_seconds').notNull().default(0),
    lastViewingToken: text('last_viewing_token'),
    lastPositionSeconds: doublePrecision('last_position_seconds'),
    lastSavedAt: timestamp('last_saved_at', { withTimezone: true }),
    // set once the spans first cover 90 % of the duration, and kept after that
    watchedAt: timestamp('watched_at', { withTimezone: true }),
  },
  (table) => [
    check('watched_time_one_video', sql`num_nonnulls(${table.procedureId}, ${table.diplomaVideoId}) = 1`),
    uniqueIndex('watched_time_user_procedure_idx').on(table.userId, table.procedureId),
    uniqueIndex('watched_time_user_diploma_video_idx').on(table.userId, table.diplomaVideoId),
  ],
);
