import { date, index, integer, jsonb, numeric, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import type { CreditCategory, DeliveryMethod } from '#shared/credits/credits.rules.ts';
import { users } from './accounts.ts';
import { certificates, diplomas } from './diplomas.ts';
import { procedures } from './catalog.ts';

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

/** The same offer on a catalogue procedure (decision 049): earned by watching it and answering the evaluation. */
export const procedureCreditOffers = pgTable('procedure_credit_offers', {
  procedureId: uuid('procedure_id')
    .primaryKey()
    .references(() => procedures.id, { onDelete: 'cascade' }),
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
    // or a catalogue procedure's (decision 049); one of the two
    procedureId: uuid('procedure_id').references(() => procedures.id, { onDelete: 'set null' }),
    answers: jsonb('answers').$type<number[]>().notNull(),
    comment: text('comment').notNull().default(''),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    unique('course_evaluations_user_diploma_unique').on(table.userId, table.diplomaId),
    unique('course_evaluations_user_procedure_unique').on(table.userId, table.procedureId),
    index('course_evaluations_procedure_id_idx').on(table.procedureId, table.submittedAt),
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
    // a procedure's credit (decision 049) has no diploma certificate: its own folio and verification code
    procedureId: uuid('procedure_id').references(() => procedures.id, { onDelete: 'set null' }),
    folio: integer('folio'),
    verificationCode: text('verification_code'),
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
    unique('credits_user_procedure_unique').on(table.userId, table.procedureId),
    unique('credits_procedure_folio_unique').on(table.procedureId, table.folio),
    unique('credits_verification_code_unique').on(table.verificationCode),
    index('credits_procedure_id_idx').on(table.procedureId, table.earnedAt),
  ],
);
