import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { organizations } from './organizations.ts';
import { users } from './accounts.ts';
import { procedures } from './catalog.ts';

export const diplomas = pgTable(
  'diplomas',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    // sanitised on write
    descriptionHtml: text('description_html').notNull().default(''),
    previewImage: text('preview_image'),
    previewPdf: text('preview_pdf'),
    certificateImage: text('certificate_image'),
    costCents: integer('cost_cents').notNull().default(0),
    /** The price in pesos (Mercado Pago); null: not sold in pesos. */
    costMxnCents: integer('cost_mxn_cents'),
    isExternal: boolean('is_external').notNull().default(false),
    // null means a CxVet diploma
    organizationId: uuid('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
    adminUserId: text('admin_user_id').references(() => users.id, { onDelete: 'set null' }),
    isActive: boolean('is_active').notNull().default(true),
    isTest: boolean('is_test').notNull().default(false),
    passThresholdPercent: integer('pass_threshold_percent').notNull().default(80),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('diplomas_admin_user_id_idx').on(table.adminUserId)],
);

/** Enrolment with the spec's began / completed / certificate timestamps. */
export const diplomaUsers = pgTable(
  'diploma_users',
  {
    diplomaId: uuid('diploma_id')
      .notNull()
      .references(() => diplomas.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    beganAt: timestamp('began_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    certificateAt: timestamp('certificate_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.diplomaId, table.userId] }),
    index('diploma_users_user_id_idx').on(table.userId),
  ],
);

/** A diploma's videos: a link to a catalogue procedure or a video of its own. */
export const diplomaVideos = pgTable(
  'diploma_videos',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    diplomaId: uuid('diploma_id')
      .notNull()
      .references(() => diplomas.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    procedureId: uuid('procedure_id').references(() => procedures.id, { onDelete: 'cascade' }),
    title: text('title'),
    description: text('description'),
    video: text('video'),
    isActive: boolean('is_active').notNull().default(true),
  },
  (table) => [index('diploma_videos_diploma_id_idx').on(table.diplomaId, table.position)],
);

export const diplomaVideoChapters = pgTable(
  'diploma_video_chapters',
  {
    videoId: uuid('video_id')
      .notNull()
      .references(() => diplomaVideos.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    name: text('name').notNull(),
    timeSeconds: integer('time_seconds').notNull(),
  },
  (table) => [primaryKey({ columns: [table.videoId, table.position] })],
);

/** PDFs and images attached to a diploma's own video. */
export const diplomaVideoFiles = pgTable('diploma_video_files', {
  id: uuid('id').primaryKey().defaultRandom(),
  videoId: uuid('video_id')
    .notNull()
    .references(() => diplomaVideos.id, { onDelete: 'cascade' }),
  kind: text('kind', { enum: ['pdf', 'image'] }).notNull(),
  title: text('title').notNull(),
  fileName: text('file_name').notNull(),
  file: text('file').notNull(),
  position: integer('position').notNull().default(0),
});

export const diplomaVideoCompletions = pgTable(
  'diploma_video_completions',
  {
    videoId: uuid('video_id')
      .notNull()
      .references(() => diplomaVideos.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    completedAt: timestamp('completed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.videoId, table.userId] })],
);

export const exams = pgTable(
  'exams',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    diplomaId: uuid('diploma_id')
      .notNull()
      .references(() => diplomas.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    // position of the video it follows (spec: indexVideo); null while unassigned
    afterVideoPosition: integer('after_video_position'),
    isActive: boolean('is_active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('exams_diploma_id_idx').on(table.diplomaId)],
);

export const examQuestions = pgTable(
  'exam_questions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    examId: uuid('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    question: text('question').notNull(),
    answers: jsonb('answers').$type<string[]>().notNull(),
    correctAnswer: integer('correct_answer').notNull(),
  },
  (table) => [index('exam_questions_exam_id_idx').on(table.examId, table.position)],
);

export const examAnswers = pgTable(
  'exam_answers',
  {
    questionId: uuid('question_id')
      .notNull()
      .references(() => examQuestions.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    answer: integer('answer').notNull(),
    answeredAt: timestamp('answered_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.questionId, table.userId] })],
);

/** A retake's shuffle: questions and answers are shown in an order derived from this seed. */
export const examAttempts = pgTable(
  'exam_attempts',
  {
    examId: uuid('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    shuffleSeed: text('shuffle_seed').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.examId, table.userId] })],
);

/** One row per user who completed an exam (spec: hasPassed when passed). */
export const examResults = pgTable(
  'exam_results',
  {
    examId: uuid('exam_id')
      .notNull()
      .references(() => exams.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    scorePercent: numeric('score_percent', { precision: 5, scale: 2, mode: 'number' }).notNull(),
    correctCount: integer('correct_count').notNull().default(0),
    questionCount: integer('question_count').notNull().default(0),
    passed: boolean('passed').notNull(),
    completedAt: timestamp('completed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.examId, table.userId] })],
);

/** Issued certificates; folio is the user's rank by completion within the diploma. */
export const certificates = pgTable(
  'certificates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    diplomaId: uuid('diploma_id')
      .notNull()
      .references(() => diplomas.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    diplomaTitle: text('diploma_title').notNull(),
    folio: integer('folio').notNull(),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    // public, unguessable id of the verification page; the default only covers rows older than the column
    verificationCode: text('verification_code')
      .notNull()
      .default(sql`upper(substr(md5(random()::text || clock_timestamp()::text), 1, 12))`),
    // what the certificate says, frozen at issue so every download is the same bytes
    holderName: text('holder_name').notNull().default(''),
    issuerName: text('issuer_name').notNull().default('CxVet'),
    completedAt: timestamp('completed_at', { withTimezone: true }).notNull().defaultNow(),
    // revoked rows stay: a folio is never given again
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokeReason: text('revoke_reason'),
    // the signed Open Badges 3.0 credential; its bit in the status list is this index
    credential: jsonb('credential'),
    statusListIndex: integer('status_list_index').generatedAlwaysAsIdentity(),
  },
  (table) => [
    unique('certificates_verification_code_unique').on(table.verificationCode),
    unique('certificates_status_list_index_unique').on(table.statusListIndex),
    unique('certificates_diploma_user_unique').on(table.diplomaId, table.userId),
    unique('certificates_diploma_folio_unique').on(table.diplomaId, table.folio),
    index('certificates_user_id_idx').on(table.userId),
  ],
);
