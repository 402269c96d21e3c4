import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accountTypeEnum, paymentStatusEnum } from './enums.ts';
import { organizations } from './organizations.ts';

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

/** Member accounts; better-auth owns id/name/email/emailVerified/image/timestamps. */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email').notNull().unique(),
    emailVerified: boolean('email_verified').notNull().default(false),
    image: text('image'),
    ...timestamps,
    type: accountTypeEnum('type').notNull().default('Gratis'),
    paymentStatus: paymentStatusEnum('payment_status').notNull().default('BIEN'),
    annualPlan: boolean('annual_plan').notNull().default(false),
    // null is the spec's 'Sin cobro'
    paymentDay: timestamp('payment_day', { withTimezone: true }),
    subscriptionId: text('subscription_id'),
    terminationDate: timestamp('termination_date', { withTimezone: true }),
    country: text('country').notNull().default(''),
    city: text('city').notNull().default(''),
    phoneNumber: text('phone_number').notNull().default(''),
    promoMail: boolean('promo_mail').notNull().default(false),
    newsMail: boolean('news_mail').notNull().default(false),
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
    homeUniversity: text('home_university'),
    // cédula profesional: printed on continuing-education records
    licenceNumber: text('licence_number').notNull().default(''),
    userNumber: integer('user_number').generatedAlwaysAsIdentity(),
    isDisabled: boolean('is_disabled').notNull().default(false),
    // set when the member's data was deleted: the row stays only so payments keep their amounts and dates
    anonymizedAt: timestamp('anonymized_at', { withTimezone: true }),
    // folded like foldSql: the admin list searches it through a trigram index
    searchText: text('search_text').generatedAlwaysAs(
      sql`translate(lower(name || ' ' || email || ' ' || phone_number), 'ÁÀÄÂÃÉÈËÊÍÌÏÎÓÒÖÔÕÚÙÜÛÑÇáàäâãéèëêíìïîóòöôõúùüûñç', 'aaaaaeeeeiiiiooooouuuuncaaaaaeeeeiiiiooooouuuunc')`,
    ),
  },
  (table) => [
    index('users_search_text_trgm_idx').using('gin', sql`${table.searchText} gin_trgm_ops`),
    index('users_name_idx').on(table.name),
    index('users_phone_number_idx').on(table.phoneNumber),
    // the users report's order: annual Premium, Premium, then by type and registration
    index('users_report_order_idx')
      .on(
        sql`(case when ${table.type} = 'Premium' and ${table.annualPlan} then 0 when ${table.type} = 'Premium' then 1 else 2 end)`,
        table.type,
        table.userNumber,
      )
      .where(sql`${table.type} <> 'Admin'`),
    index('users_type_idx').on(table.type),
    index('users_subscription_id_idx').on(table.subscriptionId),
    index('users_created_at_idx').on(table.createdAt),
    index('users_lower_name_idx').on(sql`lower(${table.name})`),
    index('users_promo_mail_idx')
      .on(table.promoMail)
      .where(sql`${table.promoMail}`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    token: text('token').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ...timestamps,
    // 'Mis dispositivos': refreshed at most every few minutes by our session lookup, not by better-auth
    lastActiveAt: timestamp('last_active_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('sessions_user_id_idx').on(table.userId)],
);

/** better-auth's credential records (the password hash lives here). */
export const authAccounts = pgTable(
  'auth_accounts',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
    refreshTokenExpiresAt: timestamp('refresh_token_expires_at', { withTimezone: true }),
    scope: text('scope'),
    password: text('password'),
    ...timestamps,
  },
  (table) => [index('auth_accounts_user_id_idx').on(table.userId)],
);

export const verifications = pgTable(
  'verifications',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    ...timestamps,
  },
  (table) => [index('verifications_identifier_idx').on(table.identifier)],
);

/** Shared by every instance, so limits hold behind a load balancer. */
export const rateLimits = pgTable('rate_limits', {
  id: text('id').primaryKey(),
  key: text('key').notNull().unique(),
  count: integer('count').notNull(),
  lastRequest: bigint('last_request', { mode: 'number' }).notNull(),
});

/** Failed sign-ins per account, throttled whatever the IP. */
export const loginFailures = pgTable('login_failures', {
  email: text('email').primaryKey(),
  failures: integer('failures').notNull().default(0),
  windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull().defaultNow(),
  lockedUntil: timestamp('locked_until', { withTimezone: true }),
});

/** Fixed-window counters (sign-in and reset-mail limits), bumped and read in one statement so parallel requests cannot overshoot. */
export const rateCounters = pgTable(
  'rate_counters',
  {
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    windowStartedAt: timestamp('window_started_at', { withTimezone: true }).notNull(),
  },
  (table) => [index('rate_counters_window_started_at_idx').on(table.windowStartedAt)],
);

/** The catalogue of home universities typed by users (spec: catalogues/public_universities). */
export const publicUniversities = pgTable('public_universities', {
  name: text('name').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
