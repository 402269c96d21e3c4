import { z } from 'zod';
import { messages } from '../messages.ts';
import { parseChapterTime, procedureTypes, species } from '../catalog/catalog.rules.ts';
import { eventStatuses } from '../events/events.rules.ts';
import { organizationTypes } from '../organizations/organizations.rules.ts';
import { textColors } from '../landing/landing.rules.ts';
import { uploadKinds, uploadTargetNames } from '../uploads/uploads.rules.ts';
import type { CaptionLanguage, CaptionVideo } from '../catalog/captions.rules.ts';

/** Spec 2 §1 and §9: every console table shows 12 rows a page. */
export const adminPageSize = 12;

const requiredText = (message: string = messages.requiredDot, max = 5000) =>
  z.string({ error: message }).trim().min(1, message).max(max);
/** A stored file's key: an existing one of the record, or a pending upload. */
const fileKey = (message: string = messages.requiredDot) => z.string({ error: message }).min(1, message).max(512);
const optionalFileKey = z.string().max(512).nullable();
const recordId = z.uuid();

export const recordParamsSchema = z.object({ id: recordId });
export const okSchema = z.object({ ok: z.literal(true) });

// ---------- surgeries (procedures) ----------

export const adminProcedureSortColumns = ['createdAt', 'name', 'type', 'species'] as const;
export const sortDirections = ['asc', 'desc'] as const;

export const adminProcedureListQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  sort: z.enum(adminProcedureSortColumns).default('createdAt'),
  dir: z.enum(sortDirections).default('desc'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
});
export type AdminProcedureListQuery = z.infer<typeof adminProcedureListQuerySchema>;

export const adminProcedureRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  type: z.enum(procedureTypes),
  species: z.enum(species),
  createdAt: z.string(),
  tags: z.array(z.string()),
});
export type AdminProcedureRow = z.infer<typeof adminProcedureRowSchema>;

export const adminProcedurePageSchema = z.object({
  items: z.array(adminProcedureRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type AdminProcedurePage = z.infer<typeof adminProcedurePageSchema>;

export const chapterInputSchema = z.object({
  name: requiredText(messages.requiredDot, 200),
  time: z
    .string({ error: messages.requiredDot })
    .trim()
    .min(1, messages.requiredDot)
    .refine((value) => value === '' || parseChapterTime(value) !== null, messages.invalidTimeFormat),
});

/** One video's subtitle files by language ('' = none); another language only once Spanish is there. */
const captionSetSchema = z
  .object({ es: optionalCaptionKey(), en: optionalCaptionKey(), pt: optionalCaptionKey() })
  .refine((set) => set.es !== '' || (set.en === '' && set.pt === ''), { message: messages.captionsSpanishFirst, path: ['es'] });
function optionalCaptionKey() {
  return z.string().max(512);
}
export const procedureCaptionsInputSchema = z.object({ demo: captionSetSchema, full: captionSetSchema });
export type ProcedureCaptionsInput = Record<CaptionVideo, Record<CaptionLanguage, string>>;
export const emptyProcedureCaptions: ProcedureCaptionsInput = { demo: { es: '', en: '', pt: '' }, full: { es: '', en: '', pt: '' } };

export const procedureInputSchema = z.object({
  name: requiredText(messages.requiredDot, 300),
  type: z.enum(procedureTypes, { error: messages.selectValue }),
  detail: requiredText(messages.requiredDot, 20_000),
  species: z.enum(species, { error: messages.selectValue }),
  tagIds: z.array(recordId).max(200),
  meta: z.string().trim().max(2000),
  previewImage: fileKey(),
  demoVideo: fileKey(),
  guidePdf: fileKey(),
  fullVideo: fileKey(),
  chapters: z.array(chapterInputSchema).max(300),
  /** Left out, the saved subtitles stay as they are (API clients older than captions). */
  captions: procedureCaptionsInputSchema.optional(),
});
export type ProcedureInput = z.infer<typeof procedureInputSchema>;

export const adminProcedureSchema = procedureInputSchema.extend({ id: z.string(), createdAt: z.string() });
export type AdminProcedure = z.infer<typeof adminProcedureSchema>;

// ---------- tags ----------

export const tagInputSchema = z.object({ name: requiredText(messages.requiredDot, 100) });
export type TagInput = z.infer<typeof tagInputSchema>;
export const adminTagSchema = z.object({ id: z.string(), name: z.string() });
export type AdminTag = z.infer<typeof adminTagSchema>;
export const adminTagListSchema = z.object({ items: z.array(adminTagSchema) });

// ---------- events ----------

/** A YouTube video id: what follows 'https://www.youtube.com/watch?v='. */
export const promoVideoIdPattern = /^[A-Za-z0-9_-]{1,64}$/;

export const eventInputSchema = z.object({
  name: requiredText(messages.requiredDot, 300),
  displayDate: requiredText(messages.requiredDot, 200),
  sortDate: z
    .string({ error: messages.requiredDot })
    .min(1, messages.requiredDot)
    .refine((value) => value === '' || !Number.isNaN(Date.parse(value)), messages.requiredDot),
  type: requiredText(messages.requiredDot, 200),
  status: z.enum(eventStatuses, { error: messages.requiredDot }),
  detailHtml: requiredText(messages.requiredDot, 100_000),
  image: fileKey(),
  pdf: optionalFileKey,
  programPdf: optionalFileKey,
  promoVideoId: z
    .string()
    .trim()
    .max(64)
    .refine((value) => value === '' || promoVideoIdPattern.test(value), messages.invalidTimeFormat),
});
export type EventInput = z.infer<typeof eventInputSchema>;

export const adminEventSchema = eventInputSchema.extend({ id: z.string() });
export type AdminEvent = z.infer<typeof adminEventSchema>;
export const adminEventRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  displayDate: z.string(),
  sortDate: z.string(),
  type: z.string(),
  status: z.enum(eventStatuses),
});
export type AdminEventRow = z.infer<typeof adminEventRowSchema>;
export const adminEventListSchema = z.object({ items: z.array(adminEventRowSchema) });

// ---------- organizations ----------

export const organizationInputSchema = z
  .object({
    title: requiredText(messages.fieldRequired, 300),
    type: z.enum(organizationTypes, { error: messages.fieldRequired }),
    logoImage: fileKey(messages.logoRequired),
    promoImage: optionalFileKey,
    promoLink: z.string().trim().max(2000).nullable(),
  })
  .superRefine(
    (value, ctx) => {
      if (value.type !== 'Empresa') return;
      if (!value.promoImage) ctx.addIssue({ code: 'custom', path: ['promoImage'], message: messages.promoRequired });
      if (!value.promoLink) ctx.addIssue({ code: 'custom', path: ['promoLink'], message: messages.fieldRequired });
    },
    // also when other fields fail, so every bad field shows at once; but only on an object (a null body is a plain 400)
    { when: (payload: { value: unknown }) => typeof payload.value === 'object' && payload.value !== null && !Array.isArray(payload.value) } as never,
  );
export type OrganizationInput = z.infer<typeof organizationInputSchema>;

export const adminOrganizationSchema = z.object({
  id: z.string(),
  title: z.string(),
  type: z.enum(organizationTypes),
  logoImage: z.string().nullable(),
  promoImage: z.string().nullable(),
  promoLink: z.string().nullable(),
});
export type AdminOrganization = z.infer<typeof adminOrganizationSchema>;
export const adminOrganizationListSchema = z.object({ items: z.array(adminOrganizationSchema) });

// ---------- landing photos ----------

export const landingSlideInputSchema = z.object({
  id: recordId,
  media: fileKey(),
  isVideo: z.boolean(),
  title: z.string().trim().max(200),
  subtitle: z.string().trim().max(400),
  textColor: z.enum(textColors),
});
export type LandingSlideInput = z.infer<typeof landingSlideInputSchema>;

export const landingInputSchema = z.object({
  slideSeconds: z.number({ error: messages.requiredDot }).int().min(1).max(600),
  slides: z.array(landingSlideInputSchema).max(50),
});
export type LandingInput = z.infer<typeof landingInputSchema>;
export const adminLandingSchema = landingInputSchema;

// ---------- newsletter ----------

export const newsletterInputSchema = z.object({ image: fileKey() });
export const adminNewsletterSchema = z.object({ image: z.string().nullable() });
export type AdminNewsletter = z.infer<typeof adminNewsletterSchema>;

// ---------- uploads ----------

export const uploadResultSchema = z.object({ key: z.string(), kind: z.enum(uploadKinds) });
export type UploadResult = z.infer<typeof uploadResultSchema>;
export const discardUploadSchema = z.object({ key: z.string().min(1).max(512) });
export const uploadQuerySchema = z.object({
  target: z.enum(uploadTargetNames),
  recordId: recordId.optional(),
});
