import { z } from 'zod';
import { procedureTypes, species } from './catalog.rules.ts';
import { captionLanguages } from './captions.rules.ts';

export const catalogPageSize = 9;

/** The catalogue route's {type}: kynd, tag, type or aula (spec 1 §2). */
// defined with the rules so that browser code can use them without loading zod
export { type CatalogFilterKind } from './catalog.rules.ts';

export const catalogQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  species: z.enum(species).optional(),
  type: z.enum(procedureTypes).optional(),
  tag: z.uuid().optional(),
  classroom: z.uuid().optional(),
  /** 'No vistos': only for signed-in members; a guest has watched nothing, so it changes nothing for them. */
  unwatched: z.enum(['1']).optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type CatalogQuery = z.infer<typeof catalogQuerySchema>;

const tagSchema = z.object({ id: z.string(), name: z.string() });
export type Tag = z.infer<typeof tagSchema>;

export const procedureCardSchema = z.object({
  id: z.string(),
  name: z.string(),
  detail: z.string(),
  type: z.enum(procedureTypes),
  species: z.enum(species),
  previewUrl: z.string().nullable(),
  tags: z.array(tagSchema),
  /** The visitor gets only the demo: the card shows the premium lock. */
  isLocked: z.boolean(),
  /** Present for signed-in members only ('Visto' badge and the heart); guests' cached cards have neither. */
  isWatched: z.boolean().optional(),
  isFavorite: z.boolean().optional(),
});
export type ProcedureCard = z.infer<typeof procedureCardSchema>;

export const catalogPageSchema = z.object({
  items: z.array(procedureCardSchema),
  total: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type CatalogPage = z.infer<typeof catalogPageSchema>;

export const catalogFiltersSchema = z.object({
  tags: z.array(tagSchema),
  classrooms: z.array(z.object({ id: z.string(), title: z.string() })),
});
export type CatalogFilters = z.infer<typeof catalogFiltersSchema>;

const chapterSchema = z.object({ name: z.string(), timeSeconds: z.number().int() });

const captionTrackSchema = z.object({ language: z.enum(captionLanguages), label: z.string(), url: z.string() });
export type CaptionTrack = z.infer<typeof captionTrackSchema>;

export const procedureDetailSchema = procedureCardSchema.extend({
  chapters: z.array(chapterSchema),
  /** The full video for those allowed, else the demo; always a /media URL. */
  videoUrl: z.string().nullable(),
  /** The same video as an HLS ladder (master playlist) once it is ready; null plays videoUrl. */
  hlsUrl: z.string().nullable(),
  /** videoUrl is the demo (the inverse of canWatchFullVideo). */
  isDemo: z.boolean(),
  /** The server's one access decision: this visitor may watch the full video and download the PDF. */
  canWatchFullVideo: z.boolean(),
  /** The full video plays only with the account's single-device viewing token (POST /api/viewing/token). */
  needsViewingToken: z.boolean(),
  /** Null for those without access: the PDF button opens the 'Aviso' modal instead. */
  guidePdfUrl: z.string().nullable(),
  /** Subtitles of the video in videoUrl (demo or full), Spanish first. */
  captions: z.array(captionTrackSchema),
});
export type ProcedureDetail = z.infer<typeof procedureDetailSchema>;
