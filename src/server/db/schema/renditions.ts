import { doublePrecision, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { RenditionStatus } from '#shared/renditions/renditions.rules.ts';

/**
 * The HLS ladder of one uploaded video (by its storage key). Files of an attempt live under
 * `hls/<id>/<working_version>/`; only `ready_version` is ever served, set in the same update as status 'ready'.
 */
export const videoRenditions = pgTable('video_renditions', {
  id: uuid('id').primaryKey().defaultRandom(),
  sourceKey: text('source_key').notNull().unique(),
  status: text('status').$type<RenditionStatus>().notNull().default('pending'),
  progress: integer('progress').notNull().default(0),
  error: text('error'),
  /** The attempt being written; its files may be incomplete and are deleted by the next attempt. */
  workingVersion: text('working_version'),
  readyVersion: text('ready_version'),
  /** Heights present in the ready ladder, lowest first. */
  heights: jsonb('heights').$type<number[]>().notNull().default([]),
  segmentCount: integer('segment_count').notNull().default(0),
  durationSeconds: doublePrecision('duration_seconds'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
