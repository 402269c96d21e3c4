import { sql } from 'drizzle-orm';
import {
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { organizations } from './organizations.ts';
import { sessions, users } from './accounts.ts';
import { classrooms } from './classrooms.ts';

/** An LMS (Moodle, Canvas, Chamilo…) registered by an Admin; its launches land in its organization. */
export const ltiPlatforms = pgTable(
  'lti_platforms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    deploymentIds: text('deployment_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The platform's OIDC authorization endpoint, where our login initiation sends the browser. */
    authorizationUrl: text('authorization_url').notNull(),
    tokenUrl: text('token_url').notNull(),
    jwksUrl: text('jwks_url').notNull(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'restrict' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [unique('lti_platforms_issuer_client_id_key').on(table.issuer, table.clientId)],
);

/** OIDC state and nonce of one login initiation: used once, before it expires, on any instance. */
export const ltiLaunchStates = pgTable(
  'lti_launch_states',
  {
    state: text('state').primaryKey(),
    nonce: text('nonce').notNull().unique(),
    platformId: uuid('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (table) => [index('lti_launch_states_expires_at_idx').on(table.expiresAt)],
);

/** The CxVet account of a platform's user: matched by platform and `sub`, never by e-mail. */
export const ltiAccounts = pgTable(
  'lti_accounts',
  {
    platformId: uuid('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    sub: text('sub').notNull(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.platformId, table.sub] }),
    index('lti_accounts_user_id_idx').on(table.userId),
  ],
);

/** A launch whose e-mail already has an account: linked only once that account's owner signs in. */
export const ltiPendingLinks = pgTable('lti_pending_links', {
  id: text('id').primaryKey(),
  platformId: uuid('platform_id')
    .notNull()
    .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
  sub: text('sub').notNull(),
  userId: text('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Instructors of a linked course: they manage the aula beside its own administrator, who is unchanged. */
export const classroomCoAdmins = pgTable(
  'classroom_co_admins',
  {
    classroomId: uuid('classroom_id')
      .notNull()
      .references(() => classrooms.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    platformId: uuid('platform_id').references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.classroomId, table.userId] }),
    index('classroom_co_admins_user_id_idx').on(table.userId),
  ],
);

/** A resource link of a course: what it opens (an aula, a procedure, a diploma) and the services it offers. */
export const ltiLinks = pgTable(
  'lti_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    platformId: uuid('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
    deploymentId: text('deployment_id').notNull(),
    resourceLinkId: text('resource_link_id').notNull(),
    contextId: text('context_id'),
    contextTitle: text('context_title'),
    targetKind: text('target_kind', { enum: ['aula', 'procedimiento', 'diplomado'] }).notNull(),
    targetId: uuid('target_id').notNull(),
    lineItemUrl: text('line_item_url'),
    membershipsUrl: text('memberships_url'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique('lti_links_platform_resource_link_key').on(table.platformId, table.resourceLinkId),
    index('lti_links_target_idx').on(table.targetKind, table.targetId),
  ],
);

/** Who launched a link: the people whose results go back to its line item. */
export const ltiLinkMembers = pgTable(
  'lti_link_members',
  {
    linkId: uuid('link_id')
      .notNull()
      .references(() => ltiLinks.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    sub: text('sub').notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.linkId, table.userId] }),
    index('lti_link_members_user_idx').on(table.userId),
  ],
);

/** Members of an aula that a roster sync added: a later sync removes only these. */
export const ltiRosterMembers = pgTable(
  'lti_roster_members',
  {
    classroomId: uuid('classroom_id')
      .notNull()
      .references(() => classrooms.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    linkId: uuid('link_id')
      .notNull()
      .references(() => ltiLinks.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.classroomId, table.userId] })],
);

/** One score for a platform's gradebook: queued, then sent or failed (the console lists both). */
export const ltiScores = pgTable(
  'lti_scores',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    linkId: uuid('link_id')
      .notNull()
      .references(() => ltiLinks.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    scoreGiven: doublePrecision('score_given').notNull(),
    scoreMaximum: doublePrecision('score_maximum').notNull(),
    comment: text('comment').notNull().default(''),
    status: text('status', { enum: ['pendiente', 'enviada', 'fallida'] })
      .notNull()
      .default('pendiente'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [index('lti_scores_created_at_idx').on(table.createdAt)],
);

/**
 * A one-time URL for LTI Dynamic Registration, made by an Admin for one organization: the LMS opens it once, before
 * it expires. Only the SHA-256 of its secret is kept.
 */
export const ltiRegistrationTokens = pgTable('lti_registration_tokens', {
  tokenHash: text('token_hash').primaryKey(),
  organizationId: uuid('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  platformId: uuid('platform_id').references(() => ltiPlatforms.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** The sessions a platform's launches opened (the launch cookie, or the one-time window): ended with the platform. */
export const ltiLaunchSessions = pgTable(
  'lti_launch_sessions',
  {
    sessionId: text('session_id')
      .primaryKey()
      .references(() => sessions.id, { onDelete: 'cascade' }),
    platformId: uuid('platform_id')
      .notNull()
      .references(() => ltiPlatforms.id, { onDelete: 'cascade' }),
  },
  (table) => [index('lti_launch_sessions_platform_id_idx').on(table.platformId)],
);
