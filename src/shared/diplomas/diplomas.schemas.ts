import { z } from 'zod';
import { examStatuses } from './diplomas.rules.ts';
import { messages } from '#shared/messages.ts';

const recordId = z.uuid();

export const memberDiplomaParamsSchema = z.object({ id: recordId });
export const memberVideoParamsSchema = z.object({ id: recordId, videoId: recordId });
export const memberExamParamsSchema = z.object({ id: recordId, examId: recordId });
export const certificateCodeParamsSchema = z.object({ code: z.string().min(1).max(40) });

// ---------- list, preview ----------

const memberDiplomaCardSchema = z.object({
  id: z.string(),
  title: z.string(),
  descriptionHtml: z.string(),
  previewImageUrl: z.string().nullable(),
  isExternal: z.boolean(),
  organizationName: z.string(),
  costCents: z.number().int(),
  isEnrolled: z.boolean(),
  progressPercent: z.number().nullable(),
  createdAt: z.string(),
});
export type MemberDiplomaCard = z.infer<typeof memberDiplomaCardSchema>;
export const memberDiplomaListSchema = z.object({ items: z.array(memberDiplomaCardSchema) });

export const diplomaSalesPageSchema = memberDiplomaCardSchema.extend({
  previewPdfUrl: z.string().nullable(),
  /** The price in pesos (Mercado Pago); null: not sold in pesos. */
  costMxnCents: z.number().int().nullable(),
  videoCount: z.number().int(),
  examCount: z.number().int(),
});
export type DiplomaSalesPage = z.infer<typeof diplomaSalesPageSchema>;

// ---------- the course ----------

const fileLinkSchema = z.object({ title: z.string(), url: z.string() });

const courseVideoSchema = z.object({
  type: z.literal('video'),
  id: z.string(),
  title: z.string(),
  description: z.string(),
  enabled: z.boolean(),
  completed: z.boolean(),
  /** 'watching': completed once 90 % is really played; 'marking': no file to watch, so the member marks it. */
  completedBy: z.enum(['watching', 'marking']),
  /** Share of the video the member really played, 0 to 100 (watched time). */
  watchedPercent: z.number().min(0).max(100),
  /** Only when enabled; a linked catalogue procedure plays from the procedure page instead. */
  videoUrl: z.string().nullable(),
  /** HLS ladder of the video once ready, and its poster; null plays videoUrl. */
  hlsUrl: z.string().nullable(),
  posterUrl: z.string().nullable(),
  procedureId: z.string().nullable(),
  guidePdfUrl: z.string().nullable(),
  chapters: z.array(z.object({ name: z.string(), timeSeconds: z.number().int() })),
  pdfs: z.array(fileLinkSchema),
  images: z.array(fileLinkSchema),
});

const courseExamSchema = z.object({
  type: z.literal('exam'),
  id: z.string(),
  title: z.string(),
  enabled: z.boolean(),
  completed: z.boolean(),
  passed: z.boolean(),
  status: z.enum(examStatuses),
  scorePercent: z.number().nullable(),
  questionCount: z.number().int(),
});

const courseItemSchema = z.discriminatedUnion('type', [courseVideoSchema, courseExamSchema]);
export type CourseItem = z.infer<typeof courseItemSchema>;

const certificateSummarySchema = z.object({
  id: z.string(),
  diplomaId: z.string(),
  diplomaTitle: z.string(),
  folio: z.string(),
  verificationCode: z.string(),
  issuedAt: z.string(),
  isRevoked: z.boolean(),
});
export type CertificateSummary = z.infer<typeof certificateSummarySchema>;

export const courseSchema = z.object({
  id: z.string(),
  title: z.string(),
  descriptionHtml: z.string(),
  isExternal: z.boolean(),
  passThresholdPercent: z.number().int(),
  progressPercent: z.number(),
  completedAt: z.string().nullable(),
  hasCertificateImage: z.boolean(),
  certificate: certificateSummarySchema.nullable(),
  items: z.array(courseItemSchema),
});
export type Course = z.infer<typeof courseSchema>;

// ---------- exams ----------

const examQuestionViewSchema = z.object({
  id: z.string(),
  question: z.string(),
  answers: z.array(z.string()),
  /** -1 while unanswered. */
  userAnswer: z.number().int(),
  /** Sent only once the exam is completed. */
  correctAnswer: z.number().int().nullable(),
});

export const examViewSchema = z.object({
  id: z.string(),
  diplomaId: z.string(),
  title: z.string(),
  status: z.enum(examStatuses),
  completed: z.boolean(),
  passed: z.boolean(),
  scorePercent: z.number().nullable(),
  passThresholdPercent: z.number().int(),
  questions: z.array(examQuestionViewSchema),
});
export type ExamView = z.infer<typeof examViewSchema>;

export const saveAnswerInputSchema = z.object({ questionId: recordId, answer: z.number().int().min(0).max(50) });
export const submitExamInputSchema = z.object({
  answers: z.array(saveAnswerInputSchema).min(1).max(500),
});
export type SubmitExamInput = z.infer<typeof submitExamInputSchema>;

export const examResultSchema = z.object({
  scorePercent: z.number(),
  passed: z.boolean(),
  progressPercent: z.number(),
});

export const videoCompletionSchema = z.object({ progressPercent: z.number() });

export const videoWatchingSchema = z.object({
  watchedPercent: z.number(),
  completed: z.boolean(),
  progressPercent: z.number(),
});
export type VideoWatching = z.infer<typeof videoWatchingSchema>;

// ---------- certificates ----------

export const certificateListSchema = z.object({ items: z.array(certificateSummarySchema) });

export const certificateVerificationSchema = z.object({
  holderName: z.string(),
  diplomaTitle: z.string(),
  folio: z.string(),
  completedAt: z.string(),
  issuedAt: z.string(),
  issuerName: z.string(),
  revokedAt: z.string().nullable(),
});
export type CertificateVerification = z.infer<typeof certificateVerificationSchema>;

/** The day it stops being valid ('YYYY-MM-DD'); today when not given. */
export const revokeCertificateInputSchema = z.object({
  reason: z.string().trim().min(3, messages.revocationReason).max(500),
  revokedOn: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Escribe una fecha válida.')
    .optional(),
});
export type RevokeCertificateInput = z.infer<typeof revokeCertificateInputSchema>;
export const adminCertificateRowSchema = certificateSummarySchema.extend({
  userId: z.string(),
  holderName: z.string(),
  revokeReason: z.string().nullable(),
});
export const adminCertificateListSchema = z.object({ items: z.array(adminCertificateRowSchema) });

// ---------- purchase ----------

export const startPurchaseResponseSchema = z.object({ orderId: z.string(), approvalUrl: z.string() });
export const confirmPurchaseInputSchema = z.object({ orderId: z.string().min(1).max(100) });
export const enrollmentSchema = z.object({ isEnrolled: z.boolean() });
/** What the browser saw go wrong: its message and the order it was paying; anything else sent is dropped. */
export const purchaseErrorInputSchema = z.object({
  message: z.string().max(1000),
  data: z.object({ orderId: z.string().max(100).optional() }).optional(),
});
