import { z } from 'zod';
import { recordId } from '../records.schemas.ts';
import { uploadKinds, uploadTargetNames } from './uploads.rules.ts';

export const uploadResultSchema = z.object({ key: z.string(), kind: z.enum(uploadKinds) });
export type UploadResult = z.infer<typeof uploadResultSchema>;
export const discardUploadSchema = z.object({ key: z.string().min(1).max(512) });
export const uploadQuerySchema = z.object({
  target: z.enum(uploadTargetNames),
  recordId: recordId.optional(),
});
