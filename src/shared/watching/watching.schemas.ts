import { z } from 'zod';
import { procedureCardSchema } from '#shared/catalog/catalog.schemas.ts';

// no real procedure lasts a day; the cap keeps nonsense out of the table
const maxSeconds = 24 * 3600;

export const savePositionSchema = z
  .object({
    positionSeconds: z.number().min(0).max(maxSeconds),
    durationSeconds: z.number().positive().max(maxSeconds),
    /** The device's single-device viewing token: a device that lost the video cannot move the position. */
    viewingToken: z.string().min(1).max(100),
    /** The player starts a new stretch here (play after a pause, a seek): the time since the last save was not played. */
    startsSpan: z.boolean().optional(),
  })
  .refine((value) => value.positionSeconds <= value.durationSeconds + 1, {
    path: ['positionSeconds'],
    message: 'La posición no puede pasar del final del video.',
  });
export type SavePosition = z.infer<typeof savePositionSchema>;

export const procedureProgressSchema = z.object({
  /** Null when nothing is stored or the member may not watch the full video now. */
  positionSeconds: z.number().nullable(),
  durationSeconds: z.number().nullable(),
  isWatched: z.boolean(),
  isFavorite: z.boolean(),
});
export type ProcedureProgress = z.infer<typeof procedureProgressSchema>;

export const continueWatchingSchema = z.array(
  z.object({
    procedure: procedureCardSchema,
    positionSeconds: z.number(),
    durationSeconds: z.number(),
    updatedAt: z.string(),
  }),
);
export type ContinueWatching = z.infer<typeof continueWatchingSchema>;

export const favoritesSchema = z.array(procedureCardSchema);
