import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { analyticsCategoryEnum } from './enums.ts';
import { sessions, users } from './accounts.ts';

/** One viewing token per user: the single-device rule. */
export const viewingTokens = pgTable('viewing_tokens', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  token: text('token').notNull(),
  // the signed-in session (device) holding the token; ending that session ends its viewing too
  sessionId: text('session_id').references(() => sessions.id, { onDelete: 'cascade' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const analyticsEvents = pgTable(
  'analytics_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    category: analyticsCategoryEnum('category').notNull(),
    label: text('label').notNull(),
    userType: text('user_type').notNull(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    // events counted once per visitor and day (guide downloads) carry a key; a second insert does nothing
    dedupeKey: text('dedupe_key'),
  },
  (table) => [
    index('analytics_events_category_created_at_idx').on(table.category, table.createdAt),
    uniqueIndex('analytics_events_dedupe_key_idx').on(table.dedupeKey),
  ],
);

/** Scheduled work, claimed with FOR UPDATE SKIP LOCKED so many instances can run it. */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull().default({}),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    doneAt: timestamp('done_at', { withTimezone: true }),
    // one pending job per key (e.g. a daily sweep) at a time
    uniqueKey: text('unique_key').unique(),
  },
  (table) => [
    index('jobs_pending_idx')
      .on(table.runAt)
      .where(sql`${table.doneAt} is null`),
  ],
);

/** One row per backup run (scheduled, from the console or from `npm run backup`): the console reads the last one. */
export const backupRuns = pgTable(
  'backup_runs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    // 'programado' | 'manual' | 'consola'
    trigger: text('trigger').notNull(),
    // 'running' | 'succeeded' | 'failed'
    status: text('status').notNull().default('running'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    fileName: text('file_name'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    fileCount: integer('file_count'),
    error: text('error'),
  },
  (table) => [index('backup_runs_started_at_idx').on(table.startedAt)],
);
