import { z } from 'zod';
import { examStatuses } from '../diplomas/diplomas.rules.ts';

/** How far a member is in an aula or a diploma: nothing watched yet, some activity, everything done. */
export const progressFilters = ['notStarted', 'inProgress', 'finished'] as const;
export type ProgressFilter = (typeof progressFilters)[number];

export const progressPageSize = 50;

/** ?page=1&filter=inProgress&search=ana: the server pages, filters and searches. */
export const progressQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  filter: z.enum(progressFilters).optional(),
  search: z.string().trim().max(200).optional(),
});
export type ProgressQuery = z.infer<typeof progressQuerySchema>;

const totalsSchema = z.object({
  members: z.number().int(),
  notStarted: z.number().int(),
  inProgress: z.number().int(),
  finished: z.number().int(),
});
export type ProgressTotals = z.infer<typeof totalsSchema>;

const pagingSchema = {
  totals: totalsSchema,
  /** Members that match the filter and search, over every page. */
  matching: z.number().int(),
  page: z.number().int(),
  pageSize: z.number().int(),
};

// ---------- an aula ----------

const classroomVideoColumnSchema = z.object({ id: z.string(), name: z.string() });
const classroomProgressRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  status: z.enum(progressFilters),
  watchedCount: z.number().int(),
  lastActivityAt: z.iso.datetime().nullable(),
  /** One per column of `videos`, in its order: the share of the video watched (0–100) and whether it counts as watched. */
  videos: z.array(z.object({ watchedPercent: z.number(), watched: z.boolean() })),
});
export type ClassroomProgressRow = z.infer<typeof classroomProgressRowSchema>;
export const classroomProgressSchema = z.object({
  videos: z.array(classroomVideoColumnSchema),
  rows: z.array(classroomProgressRowSchema),
  ...pagingSchema,
});
export type ClassroomProgress = z.infer<typeof classroomProgressSchema>;

// ---------- a diploma ----------

const diplomaExamColumnSchema = z.object({ id: z.string(), title: z.string() });
const diplomaProgressRowSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  status: z.enum(progressFilters),
  videosCompleted: z.number().int(),
  exams: z.array(z.object({ status: z.enum(examStatuses), scorePercent: z.number().nullable() })),
  certificate: z.object({ folio: z.string(), issuedAt: z.iso.datetime() }).nullable(),
});
export type DiplomaProgressRow = z.infer<typeof diplomaProgressRowSchema>;
export const diplomaProgressSchema = z.object({
  videoCount: z.number().int(),
  exams: z.array(diplomaExamColumnSchema),
  rows: z.array(diplomaProgressRowSchema),
  ...pagingSchema,
});
export type DiplomaProgress = z.infer<typeof diplomaProgressSchema>;
