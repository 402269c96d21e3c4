import { z } from 'zod';
import { messages } from '../messages.ts';
import { consoleListQuerySchema, queryFlag } from '../records.schemas.ts';
import { accountTypes } from '../accounts/accounts.rules.ts';
import { parseChapterTime } from '../catalog/catalog.rules.ts';

/** Spec 3 §5: the diploma's two kinds as the form names them. */
const diplomaKinds = ['CxVet', 'External'] as const;

/** The accounts a diploma takes: spec 3 §5's Premium and Admin, and Legacy, which keeps Premium benefits. */
export const enrollableTypes = ['Premium', 'Legacy', 'Admin'] as const;

/** Spec 3 §9: the charts' 16 colours (Mantine palette shades that keep 3:1 contrast on white). */
export const chartPalette = [
  'blue.7',
  'orange.7',
  'teal.7',
  'red.7',
  'violet.7',
  'green.8',
  'pink.7',
  'cyan.8',
  'indigo.7',
  'yellow.8',
  'grape.7',
  'lime.9',
  'gray.7',
  'blue.9',
  'orange.9',
  'teal.9',
] as const;

/** 'Debe ser un número válido redondeado a 2 dígitos': digits with at most two decimals. */
const costPattern = /^\d{1,6}(\.\d{1,2})?$/;

/** USD text of the form into integer cents, without floating-point rounding. */
export function costToCents(cost: string): number {
  const [whole = '0', fraction = ''] = cost.trim().split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** Integer cents into the form's USD text with two decimals. */
export function centsToCost(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

const requiredText = (max: number, message: string = messages.fieldRequired) =>
  z.string({ error: message }).trim().min(1, message).max(max);
const fileKey = (message: string) => z.string({ error: message }).min(1, message).max(512);
const recordId = z.uuid();

/**
 * A form-wide check runs even when other fields failed (every bad field shows at once), but never on a value that
 * is not an object, nor when a field it reads failed to parse (a failed length check leaves the value readable).
 */
function whenParsed(...fields: string[]) {
  return {
    when: (payload: { issues: { path?: PropertyKey[]; continue?: boolean }[] }) =>
      !payload.issues.some(
        (issue) => !issue.path?.length || (issue.continue !== true && fields.includes(String(issue.path[0]))),
      ),
  } as never;
}

export const diplomaParamsSchema = z.object({ id: recordId });
export const diplomaVideoParamsSchema = z.object({ id: recordId, videoId: recordId });
export const diplomaExamParamsSchema = z.object({ id: recordId, examId: recordId });
export const diplomaUserParamsSchema = z.object({ id: recordId, userId: z.string().min(1).max(100) });
export const okSchema = z.object({ ok: z.literal(true) });
export const activeInputSchema = z.object({ isActive: z.boolean() });
export const moveInputSchema = z.object({ direction: z.enum(['up', 'down']) });
export const assignInputSchema = z.object({ assigned: z.boolean() });

// ---------- list and general information ----------

const adminDiplomaRowSchema = z.object({
  id: z.string(),
  title: z.string(),
  kind: z.enum(diplomaKinds),
  isActive: z.boolean(),
  isTest: z.boolean(),
  videoCount: z.number().int(),
  userCount: z.number().int(),
  createdAt: z.string(),
});
export type AdminDiplomaRow = z.infer<typeof adminDiplomaRowSchema>;

/** What members would miss if the diploma were activated now (shown before 'Activar'). */
export const diplomaActivationWarningsSchema = z.object({
  /** Active exams 'Sin asignar' (or after a video that is gone): never shown to members. */
  unassignedExams: z.array(z.string()),
  /** Active videos with nothing to play: an own video with no file, a linked procedure with no full video. */
  videosWithoutFile: z.array(z.string()),
});
export type DiplomaActivationWarnings = z.infer<typeof diplomaActivationWarningsSchema>;
export const adminDiplomaListSchema = z.object({ items: z.array(adminDiplomaRowSchema) });

export const diplomaInputSchema = z
  .object({
    title: requiredText(300),
    descriptionHtml: requiredText(100_000),
    previewImage: fileKey(messages.previewImageRequired),
    previewPdf: fileKey(messages.previewPdfRequired),
    certificateImage: z.string().max(512).nullable(),
    cost: z
      .string({ error: messages.fieldRequired })
      .trim()
      .min(1, messages.fieldRequired)
      .regex(costPattern, messages.invalidCost),
    /** The price in pesos (Mercado Pago); empty: not sold in pesos. */
    costMxn: z
      .string()
      .trim()
      .regex(/^(\d{1,6}(\.\d{1,2})?)?$/, messages.invalidCost)
      .refine((value) => value === '' || Number(value) > 0, messages.invalidCost)
      .default(''),
    kind: z.enum(diplomaKinds, { error: messages.fieldRequired }),
    organizationId: z.uuid().nullable(),
    adminEmail: z.string().trim().max(320),
    isTest: z.boolean(),
  })
  .superRefine(
    (value, ctx) => {
      if (value.kind === 'External' && !value.organizationId) {
        ctx.addIssue({ code: 'custom', path: ['organizationId'], message: messages.fieldRequired });
      }
    },
    whenParsed('kind', 'organizationId'),
  );
export type DiplomaInput = z.infer<typeof diplomaInputSchema>;

export const adminDiplomaSchema = z.object({
  id: z.string(),
  title: z.string(),
  descriptionHtml: z.string(),
  previewImage: z.string(),
  previewPdf: z.string(),
  certificateImage: z.string().nullable(),
  cost: z.string(),
  costMxn: z.string(),
  kind: z.enum(diplomaKinds),
  organizationId: z.string().nullable(),
  adminEmail: z.string(),
  isTest: z.boolean(),
  isActive: z.boolean(),
  createdAt: z.string(),
});
export type AdminDiploma = z.infer<typeof adminDiplomaSchema>;

export const diplomaOptionsSchema = z.object({
  organizations: z.array(z.object({ id: z.string(), title: z.string() })),
  procedures: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type DiplomaOptions = z.infer<typeof diplomaOptionsSchema>;

/** Candidates for the diploma's administrator whose e-mail contains what was typed: a few, never every user. */
export const diplomaAdminCandidatesQuerySchema = z.object({ q: z.string().trim().max(100).optional() });
export const diplomaAdminCandidatesSchema = z.object({
  people: z.array(z.object({ email: z.string(), name: z.string() })),
});
export type DiplomaAdminCandidates = z.infer<typeof diplomaAdminCandidatesSchema>;

// ---------- videos ----------

const videoChapterInputSchema = z.object({
  name: z.string().trim().max(200),
  time: z.string().trim().max(10),
});

const videoFileInputSchema = z.object({
  title: z.string().trim().max(300),
  file: z.string().max(512),
});

/** The own-video modal; incomplete markers and files get the spec's messages. */
export const ownVideoInputSchema = z
  .object({
    title: requiredText(300),
    description: requiredText(20_000),
    video: fileKey(messages.fieldRequired),
    chapters: z.array(videoChapterInputSchema).max(300),
    pdfs: z.array(videoFileInputSchema).max(50),
    images: z.array(videoFileInputSchema).max(50),
  })
  .superRefine((value, ctx) => {
    if (value.chapters.some((chapter) => !chapter.name || !chapter.time || parseChapterTime(chapter.time) === null)) {
      ctx.addIssue({ code: 'custom', path: ['chapters'], message: messages.markersIncomplete });
    }
  }, whenParsed('chapters'))
  .superRefine((value, ctx) => {
    if (value.pdfs.some((file) => !file.title || !file.file)) {
      ctx.addIssue({ code: 'custom', path: ['pdfs'], message: messages.pdfIncomplete });
    }
  }, whenParsed('pdfs'))
  .superRefine((value, ctx) => {
    if (value.images.some((file) => !file.title || !file.file)) {
      ctx.addIssue({ code: 'custom', path: ['images'], message: messages.imageIncomplete });
    }
  }, whenParsed('images'));
export type OwnVideoInput = z.infer<typeof ownVideoInputSchema>;

export const linkVideoInputSchema = z.object({ procedureId: z.uuid({ error: messages.selectValue }) });

const adminDiplomaVideoSchema = z.object({
  id: z.string(),
  position: z.number().int(),
  kind: z.enum(['procedure', 'own']),
  procedureId: z.string().nullable(),
  title: z.string(),
  description: z.string(),
  video: z.string().nullable(),
  /** The linked surgery's preview image (public), or null. */
  previewImage: z.string().nullable(),
  /** The linked surgery's guide PDF, shown instead of the player in the preview. */
  guidePdf: z.string().nullable(),
  isActive: z.boolean(),
  chapters: z.array(z.object({ name: z.string(), time: z.string() })),
  pdfs: z.array(z.object({ title: z.string(), file: z.string() })),
  images: z.array(z.object({ title: z.string(), file: z.string() })),
});
export type AdminDiplomaVideo = z.infer<typeof adminDiplomaVideoSchema>;
export const adminDiplomaVideoListSchema = z.object({ items: z.array(adminDiplomaVideoSchema) });

// ---------- exams ----------

const examQuestionInputSchema = z
  .object({
    question: requiredText(2000),
    answers: z.array(requiredText(1000)).min(2, messages.examAnswersRequired).max(10),
    correctAnswer: z.number({ error: messages.examCorrectRequired }).int().min(0, messages.examCorrectRequired),
  })
  .superRefine(
    (value, ctx) => {
      if (value.correctAnswer >= value.answers.length) {
        ctx.addIssue({ code: 'custom', path: ['correctAnswer'], message: messages.examCorrectRequired });
      }
    },
    whenParsed('answers', 'correctAnswer'),
  );

export const examInputSchema = z.object({
  title: requiredText(300),
  /** The video the exam follows; null leaves it unassigned. */
  videoId: z.uuid().nullable(),
  questions: z.array(examQuestionInputSchema).min(1, messages.examQuestionsRequired).max(200),
});
export type ExamInput = z.infer<typeof examInputSchema>;

const adminExamSchema = z.object({
  id: z.string(),
  title: z.string(),
  videoId: z.string().nullable(),
  /** The video's title, for the table's 'Video' column. */
  videoTitle: z.string().nullable(),
  isActive: z.boolean(),
  /** Members answered it: its questions can no longer change. */
  hasAnswers: z.boolean(),
  questions: z.array(z.object({ question: z.string(), answers: z.array(z.string()), correctAnswer: z.number().int() })),
});
export type AdminExam = z.infer<typeof adminExamSchema>;
export const adminExamListSchema = z.object({ items: z.array(adminExamSchema) });

// ---------- users ----------

const diplomaUserRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  type: z.enum(accountTypes),
  assigned: z.boolean(),
  beganAt: z.string().nullable(),
});
export type DiplomaUserRow = z.infer<typeof diplomaUserRowSchema>;

const diplomaUserSortFields = ['assigned', 'name', 'email', 'type', 'beganAt'] as const;
/** One page of 'Administrar Usuarios': searched, sorted and cut on the server, as the site may have 100,000 members. */
export const diplomaUsersQuerySchema = consoleListQuerySchema(diplomaUserSortFields, {
  sort: 'email',
  dir: 'asc',
}).extend({ assignedOnly: queryFlag });
export type DiplomaUsersQuery = z.infer<typeof diplomaUsersQuerySchema>;
export const diplomaUserPageSchema = z.object({ items: z.array(diplomaUserRowSchema), total: z.number().int() });
export type DiplomaUserPage = z.infer<typeof diplomaUserPageSchema>;

// ---------- statistics ----------

const progressStatuses = ['completed', 'inProgress', 'notStarted'] as const;
export type ProgressStatus = (typeof progressStatuses)[number];

const statisticsUserSortFields = ['name', 'email', 'status', 'progressPercent'] as const;
/**
 * The statistics tab's scores table, one page at a time: a diploma a university imports can have 10,000 members,
 * whose rows sent whole weighed 1.6 MB and were all drawn at once. The figures and charts stay the whole diploma's.
 */
export const diplomaStatisticsQuerySchema = consoleListQuerySchema(statisticsUserSortFields, {
  sort: 'name',
  dir: 'asc',
});
export type DiplomaStatisticsQuery = z.infer<typeof diplomaStatisticsQuerySchema>;

const statisticsUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  status: z.enum(progressStatuses),
  progressPercent: z.number(),
  /** Score per exam, in the order of `exams`; null when not completed. */
  scores: z.array(z.number().nullable()),
});
export type StatisticsUser = z.infer<typeof statisticsUserSchema>;

export const diplomaStatisticsSchema = z.object({
  exams: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      completed: z.number().int(),
      notCompleted: z.number().int(),
      passed: z.number().int(),
      rejected: z.number().int(),
      questions: z.array(
        z.object({ label: z.string(), question: z.string(), correct: z.number().int(), incorrect: z.number().int() }),
      ),
    }),
  ),
  /** One page of the members' scores, searched and sorted; `total` counts the members the search matched. */
  users: z.object({ items: z.array(statisticsUserSchema), total: z.number().int() }),
  /** Every member of the diploma, whatever the search. */
  progress: z.object({ completed: z.number().int(), inProgress: z.number().int(), notStarted: z.number().int() }),
});
export type DiplomaStatistics = z.infer<typeof diplomaStatisticsSchema>;

// ---------- preview ----------

export const diplomaPreviewSchema = z.object({
  id: z.string(),
  title: z.string(),
  descriptionHtml: z.string(),
  kind: z.enum(diplomaKinds),
  items: z.array(
    z.discriminatedUnion('type', [
      z.object({
        type: z.literal('video'),
        locked: z.boolean(),
        completed: z.boolean(),
        video: adminDiplomaVideoSchema,
      }),
      z.object({ type: z.literal('exam'), locked: z.boolean(), completed: z.boolean(), exam: adminExamSchema }),
    ]),
  ),
});
export type DiplomaPreview = z.infer<typeof diplomaPreviewSchema>;

// ---------- diploma administrators ----------

export const managedDiplomaSchema = z.object({
  id: z.string(),
  title: z.string(),
  kind: z.enum(diplomaKinds),
  descriptionHtml: z.string(),
  previewImage: z.string().nullable(),
  userCount: z.number().int(),
  createdAt: z.string(),
});
export type ManagedDiploma = z.infer<typeof managedDiplomaSchema>;
export const managedDiplomaListSchema = z.object({ items: z.array(managedDiplomaSchema) });
