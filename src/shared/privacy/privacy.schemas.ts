import { z } from 'zod';
import { certificateChoices, dataExportStatuses } from './privacy.rules.ts';

const dataExportSchema = z.object({
  id: z.string(),
  status: z.enum(dataExportStatuses),
  requestedAt: z.string(),
  readyAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  sizeBytes: z.number().nullable(),
});
export type DataExport = z.infer<typeof dataExportSchema>;

export const dataExportStateSchema = z.object({ export: dataExportSchema.nullable() });
export type DataExportState = z.infer<typeof dataExportStateSchema>;

export const deleteAccountSchema = z.object({
  password: z.string().min(1, 'Escribe tu contraseña.').max(200),
  certificates: z.enum(certificateChoices),
});
export type DeleteAccountInput = z.infer<typeof deleteAccountSchema>;

export const adminDeleteAccountSchema = z.object({
  reason: z.string().trim().min(5, 'Escribe el motivo (al menos 5 caracteres).').max(500),
  certificates: z.enum(certificateChoices),
});
export type AdminDeleteAccountInput = z.infer<typeof adminDeleteAccountSchema>;
