import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { eventStatusEnum } from './enums.ts';

export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    displayDate: text('display_date').notNull(),
    sortDate: timestamp('sort_date', { withTimezone: true }).notNull(),
    type: text('type').notNull(),
    // sanitised on write
    detailHtml: text('detail_html').notNull(),
    status: eventStatusEnum('status').notNull().default('Activo'),
    image: text('image'),
    pdf: text('pdf'),
    programPdf: text('program_pdf'),
    promoVideoId: text('promo_video_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('events_status_sort_date_idx').on(table.status, table.sortDate)],
);
