import { boolean, check, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { textColorEnum } from './enums.ts';

export const landingSlides = pgTable('landing_slides', {
  id: uuid('id').primaryKey().defaultRandom(),
  media: text('media').notNull(),
  isVideo: boolean('is_video').notNull().default(false),
  title: text('title').notNull().default(''),
  subtitle: text('subtitle').notNull().default(''),
  textColor: textColorEnum('text_color').notNull().default('Blanco'),
  position: integer('position').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Site-wide settings: a single row with id 1. */
export const siteSettings = pgTable(
  'site_settings',
  {
    id: integer('id').primaryKey().default(1),
    slideSeconds: integer('slide_seconds').notNull().default(5),
    newsletterImage: text('newsletter_image'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check('site_settings_single_row', sql`${table.id} = 1`)],
);
