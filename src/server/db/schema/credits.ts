import { date, index, jsonb, numeric, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import type { CreditCategory, DeliveryMethod } from '#shared/credits/credits.rules.ts';
import { users } from './accounts.ts';
import { certificates, diplomas } from './diplomas.ts';

export type CreditBodyRow = { name: string; approvalNumber: string };
export type CreditProof = {
  videos: { title: string; watchedPercent: number }[];
  exams: { title: string; scorePercent: number }[];
  evaluationId: string;
};

/** What accrediting bodies approved on a diploma: hours, category, delivery method and validity. */
export const creditOffers = pgTable('credit_offers', {
  diplomaId: uuid('diploma_id')
    .primaryKey()
    .references(() => diplomas.id, { onDelete: 'cascade' }),
  hours: numeric('hours', { precision: 4, scale: 1, mode: 'number' }).notNull(),
  category: text('category').$type<CreditCategory>().notNull(),
  deliveryMethod: text('delivery_method').$type<DeliveryMethod>().notNull(),
  bodies: jsonb('bodies').$type<CreditBodyRow[]>().notNull(),
  validFrom: date('valid_from').notNull(),
  validUntil: date('valid_until').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** A member's course evaluation (Likert answers and a comment); one per member and diploma. */
export const courseEvaluations = pgTable(
  'course_evaluations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    // provider records outlive the diploma and the account's other data (four years)
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    diplomaId: uuid('diploma_id').references(() => diplomas.id, { onDelete: 'set null' }),
    answers: jsonb('answers').$type<number[]>().notNull(),
    comment: text('comment').notNull().default(''),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique('course_evaluations_user_diploma_unique').on(table.userId, table.diplomaId),
    index('course_evaluations_diploma_id_idx').on(table.diplomaId, table.submittedAt),
  ],
);

/** Earned credit, frozen at the moment with what proved it; the provider's roster for audits. */
export const credits = pgTable(
  'credits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    diplomaId: uuid('diploma_id').references(() => diplomas.id, { onDelete: 'set null' }),
    certificateId: uuid('certificate_id').references(() => certificates.id, { onDelete: 'set null' }),
    evaluationId: uuid('evaluation_id').references(() => courseEvaluations.id, { onDelete: 'set null' }),
    title: text('title').notNull(),
    holderName: text('holder_name').notNull(),
    licenceNumber: text('licence_number').notNull().default(''),
    hours: numeric('hours', { precision: 4, scale: 1, mode: 'number' }).notNull(),
    category: text('category').$type<CreditCategory>().notNull(),
    deliveryMethod: text('delivery_method').$type<DeliveryMethod>().notNull(),
    bodies: jsonb('bodies').$type<CreditBodyRow[]>().notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    earnedAt: timestamp('earned_at', { withTimezone: true }).notNull().defaultNow(),
    proof: jsonb('proof').$type<CreditProof>().notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokeReason: text('revoke_reason'),
  },
  (table) => [
    unique('credits_user_diploma_unique').on(table.userId, table.diplomaId),
    index('credits_diploma_id_idx').on(table.diplomaId, table.earnedAt),
  ],
);
