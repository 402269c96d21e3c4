import { sql } from 'drizzle-orm';
import { index, integer, pgEnum, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { captionLanguages, captionVideos } from '#shared/catalog/captions.rules.ts';
import { procedureTypeEnum, speciesEnum } from './enums.ts';

export const tags = pgTable('tags', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Surgical procedures; file columns hold storage keys, never public URLs. */
export const procedures = pgTable(
  'procedures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    detail: text('detail').notNull(),
    type: procedureTypeEnum('type').notNull().default('Gratis'),
    species: speciesEnum('species').notNull(),
    meta: text('meta').notNull().default(''),
    previewImage: text('preview_image'),
    demoVideo: text('demo_video'),
    fullVideo: text('full_video'),
    guidePdf: text('guide_pdf'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    // name, detail, meta and tag names folded like foldSql; kept by database triggers (migration 0005)
    searchText: text('search_text').notNull().default(''),
  },
  (table) => [
    index('procedures_created_at_idx').on(table.createdAt),
    index('procedures_search_text_trgm_idx').using('gin', sql`${table.searchText} gin_trgm_ops`),
    index('procedures_species_idx').on(table.species),
    index('procedures_type_idx').on(table.type),
  ],
);

export const procedureChapters = pgTable(
  'procedure_chapters',
  {
    procedureId: uuid('procedure_id')
      .notNull()
      .references(() => procedures.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    timeSeconds: integer('time_seconds').notNull(),
  },
  (table) => [primaryKey({ columns: [table.procedureId, table.position] })],
);

export const procedureTags = pgTable(
  'procedure_tags',
  {
    procedureId: uuid('procedure_id')
      .notNull()
      .references(() => procedures.id, { onDelete: 'cascade' }),
    tagId: uuid('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.procedureId, table.tagId] }),
    index('procedure_tags_tag_id_idx').on(table.tagId),
  ],
);

export const captionLanguageEnum = pgEnum('caption_language', captionLanguages);
export const captionVideoEnum = pgEnum('caption_video', captionVideos);

/** WebVTT subtitles of one of a procedure's two videos, one file per language; served with that video's access rule. */
export const procedureCaptions = pgTable(
  'procedure_captions',
  {
    procedureId: uuid('procedure_id')
      .notNull()
      .references(() => procedures.id, { onDelete: 'cascade' }),
    video: captionVideoEnum('video').notNull(),
    language: captionLanguageEnum('language').notNull(),
    fileKey: text('file_key').notNull().unique(),
  },
  (table) => [primaryKey({ columns: [table.procedureId, table.video, table.language] })],
);
