import { z } from 'zod';

export const backupRunSchema = z.object({
  id: z.number(),
  /** programado | consola | comando */
  trigger: z.string(),
  status: z.enum(['running', 'succeeded', 'failed']),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  fileName: z.string().nullable(),
  sizeBytes: z.number().nullable(),
  fileCount: z.number().nullable(),
  /** The failure's message (paths and tool output; never members' data). */
  error: z.string().nullable(),
});
export type BackupRun = z.infer<typeof backupRunSchema>;

const backupArchiveSchema = z.object({ fileName: z.string(), sizeBytes: z.number(), createdAt: z.string() });
export type BackupArchive = z.infer<typeof backupArchiveSchema>;

export const backupsStatusSchema = z.object({
  last: backupRunSchema.nullable(),
  lastSucceededAt: z.string().nullable(),
  /** failed: the last run failed; stale: the last good one is older than two days; never: none yet. */
  warning: z.enum(['failed', 'stale', 'never']).nullable(),
  /** A run is waiting in the job queue or running. */
  pending: z.boolean(),
  archives: z.array(backupArchiveSchema),
  schedule: z.enum(['off', 'hourly', 'daily', 'weekly']),
  keep: z.number(),
  directory: z.string(),
});
export type BackupsStatus = z.infer<typeof backupsStatusSchema>;

export const startBackupResponseSchema = z.object({ queued: z.boolean() });
