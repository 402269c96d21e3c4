import { boolean, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizationTypeEnum } from './enums.ts';

export const organizations = pgTable('organizations', {
  id: uuid('id').primaryKey().defaultRandom(),
  title: text('title').notNull(),
  type: organizationTypeEnum('type').notNull(),
  isPrivate: boolean('is_private').notNull().default(false),
  logoImage: text('logo_image'),
  promoImage: text('promo_image'),
  promoLink: text('promo_link'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
