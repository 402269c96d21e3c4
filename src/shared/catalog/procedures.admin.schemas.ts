import { z } from 'zod';
import { messages } from '../messages.ts';
import { consoleListQuerySchema, fileKey, recordId, requiredText } from '../records.schemas.ts';
import { parseChapterTime, procedureTypes, species } from './catalog.rules.ts';
import type { CaptionLanguage, CaptionVideo } from './captions.rules.ts';

// ---------- surgeries (procedures) ----------

export const adminProcedureSortColumns = ['createdAt', 'name', 'type', 'species'] as const;

export const adminProcedureListQuerySchema = consoleListQuerySchema(adminProcedureSortColumns, {
  sort: 'createdAt',
  dir: 'desc',
});
export type AdminProcedureListQuery = z.infer<typeof adminProcedureListQuerySchema>;

const adminProcedureRowSchema = z.object({
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

const chapterInputSchema = z.object({
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
  .refine((set) => set.es !== '' || (set.en === '' && set.pt === ''), {
    message: messages.captionsSpanishFirst,
    path: ['es'],
  });
function optionalCaptionKey() {
  return z.string().max(512);
}
const procedureCaptionsInputSchema = z.object({ demo: captionSetSchema, full: captionSetSchema });
export type ProcedureCaptionsInput = Record<CaptionVideo, Record<CaptionLanguage, string>>;
export const emptyProcedureCaptions: ProcedureCaptionsInput = {
  demo: { es: '', en: '', pt: '' },
  full: { es: '', en: '', pt: '' },
};

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
