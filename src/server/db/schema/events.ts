import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { eventStatusEnum } from './enums.ts';

export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    displayDate: text('display_date').notNull(),
    sortDate: timestamp('sort_date', { withTimezone: true }).notNull(),
    // when it really happens (calendars, structured data); displayDate stays the text the agenda shows
    startsAt: timestamp('starts_at', { withTimezone: true }),
    endsAt: timestamp('ends_at', { withTimezone: true }),
    place: text('place').notNull().default(''),
    type: text('type').notNull(),
    // sanitised on write
    detailHtml: text('detail_html').notNull(),
    status: eventStatusEnum('status').notNull().default('Activo'),
    image: text('image'),
    pdf: text('pdf'),
    programPdf: text('program_pdf'),
    promoVideoId: text('promo_video_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    // the sitemap's lastmod and the calendars' DTSTAMP
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('events_status_sort_date_idx').on(table.status, table.sortDate)],
);
