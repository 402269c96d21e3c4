import { z } from 'zod';
import { messages } from '../messages.ts';
import { procedureTypes, species } from '../catalog/catalog.rules.ts';
import { organizationTypes } from '../organizations/organizations.rules.ts';
import { classroomAccessTypes } from './classrooms.rules.ts';
import { consoleListQuerySchema, queryFlag } from '../records.schemas.ts';

const required = messages.fieldRequired;
const userId = z.string().min(1).max(100);

export const classroomParamsSchema = z.object({ id: z.uuid() });

/** Spec 3 §5: the aula form's required fields and their messages, for the browser and the server. */
export const classroomInputSchema = z.object({
  title: z.string({ error: required }).trim().min(1, required).max(300),
  description: z.string().trim().max(5000).default(''),
  accessType: z.enum(classroomAccessTypes, { error: required }),
  organizationType: z.enum(organizationTypes, { error: required }),
  organizationId: z.uuid({ error: required }),
  expiresAt: z.iso.datetime({ offset: true, error: required }),
  previewImage: z.string({ error: messages.classroomImageRequired }).min(1, messages.classroomImageRequired).max(512),
  previewPdf: z.string({ error: messages.classroomPdfRequired }).min(1, messages.classroomPdfRequired).max(512),
  procedureIds: z.array(z.uuid()).min(1, messages.classroomVideoRequired).max(5000),
  /** The users list as changes to the saved one: the form never holds the whole list (spec 3 §2, decision 065). */
  addedUserIds: z.array(userId).max(100_000).default([]),
  removedUserIds: z.array(userId).max(100_000).default([]),
  adminUserId: userId.nullable(),
});
export type ClassroomInput = z.input<typeof classroomInputSchema>;
export type ClassroomValues = z.output<typeof classroomInputSchema>;

const adminClassroomRowSchema = z.object({
  id: z.string(),
  title: z.string(),
  accessType: z.enum(classroomAccessTypes),
  organizationType: z.enum(organizationTypes),
  organizationTitle: z.string(),
  videoCount: z.number().int(),
  userCount: z.number().int(),
  isActive: z.boolean(),
  expiresAt: z.string(),
});
export type AdminClassroomRow = z.infer<typeof adminClassroomRowSchema>;
export const adminClassroomListSchema = z.object({ items: z.array(adminClassroomRowSchema) });

export const adminClassroomSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  accessType: z.enum(classroomAccessTypes),
  organizationType: z.enum(organizationTypes),
  organizationId: z.string(),
  expiresAt: z.string(),
  previewImage: z.string().nullable(),
  previewPdf: z.string().nullable(),
  procedureIds: z.array(z.string()),
  userCount: z.number().int(),
  adminUserId: z.string().nullable(),
  /** The administrator's e-mail, which the form shows before any search. */
  adminUserEmail: z.string().nullable(),
  isActive: z.boolean(),
});
export type AdminClassroom = z.infer<typeof adminClassroomSchema>;

export const classroomActiveInputSchema = z.object({ isActive: z.boolean() });

/** A row of the videos table: name, tags, species, type. */
const classroomVideoOptionSchema = z.object({
  id: z.string(),
  name: z.string(),
  tags: z.array(z.string()),
  species: z.enum(species),
  type: z.enum(procedureTypes),
});
export type ClassroomVideoOption = z.infer<typeof classroomVideoOptionSchema>;
export const classroomVideoOptionListSchema = z.object({ items: z.array(classroomVideoOptionSchema) });

const classroomMemberSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });
export type ClassroomMember = z.infer<typeof classroomMemberSchema>;

const classroomCandidateSortFields = ['assigned', 'name', 'email'] as const;
/** One page of the accounts an aula admits, searched, sorted and cut on the server: the site may have 100,000. */
export const classroomCandidatesQuerySchema = consoleListQuerySchema(classroomCandidateSortFields, {
  sort: 'email',
  dir: 'asc',
}).extend({ assignedOnly: queryFlag });
export type ClassroomCandidatesQuery = z.infer<typeof classroomCandidatesQuerySchema>;
/** The Admin's form asks for the organization chosen in it, and marks the members of the aula saved under it. */
export const adminCandidatesQuerySchema = classroomCandidatesQuerySchema.extend({
  organizationId: z.uuid(),
  classroomId: z.uuid().optional(),
});
const classroomCandidateSchema = classroomMemberSchema.extend({ assigned: z.boolean() });
export type ClassroomCandidate = z.infer<typeof classroomCandidateSchema>;
export const classroomCandidatePageSchema = z.object({
  items: z.array(classroomCandidateSchema),
  total: z.number().int(),
});
export type ClassroomCandidatePage = z.infer<typeof classroomCandidatePageSchema>;

// ---------- bulk members ----------

/** Pasted text, or a CSV / xlsx file as base64 (parsed on the server). */
export const importInputSchema = z.discriminatedUnion('format', [
  z.object({ format: z.literal('text'), text: z.string().max(2_000_000) }),
  z.object({ format: z.enum(['csv', 'xlsx']), fileName: z.string().max(300), dataBase64: z.string().max(8_000_000) }),
]);
export type ImportInput = z.infer<typeof importInputSchema>;
/** The Admin form previews against the organization chosen in the form, saved or not. */
export const adminImportInputSchema = z.object({
  organizationId: z.uuid(),
  /** The aula whose saved list counts as already chosen; absent for a new aula or another organization. */
  classroomId: z.uuid().optional(),
  addedUserIds: z.array(userId).max(100_000),
  removedUserIds: z.array(userId).max(100_000),
  source: importInputSchema,
});
export type AdminImportInput = z.infer<typeof adminImportInputSchema>;

const importStatuses = ['ok', 'already', 'duplicate', 'unknown', 'outside', 'invalid', 'blank'] as const;
export type ImportStatus = (typeof importStatuses)[number];

const importLineSchema = z.object({
  line: z.number().int(),
  text: z.string(),
  email: z.string().nullable(),
  status: z.enum(importStatuses),
  reason: z.string(),
  user: classroomMemberSchema.nullable(),
});
export type ImportLineResult = z.infer<typeof importLineSchema>;
export const importPreviewSchema = z.object({
  lines: z.array(importLineSchema),
  matched: z.array(classroomMemberSchema),
});
export type ImportPreview = z.infer<typeof importPreviewSchema>;

/**
 * What an aula administrator may learn from an import: per line, will be added or not, and a reason that
 * names no account they cannot already see; only the accounts that will be added come back.
 */
const managedImportStatuses = ['ok', 'refused'] as const;
const managedImportLineSchema = z.object({
  line: z.number().int(),
  text: z.string(),
  status: z.enum(managedImportStatuses),
  reason: z.string(),
});
export const managedImportPreviewSchema = z.object({
  lines: z.array(managedImportLineSchema),
  matched: z.array(classroomMemberSchema),
});
export type ManagedImportPreview = z.infer<typeof managedImportPreviewSchema>;
export const addUsersInputSchema = z.object({ userIds: z.array(userId).min(1).max(100_000) });
/** 'Guardar' on the aula administrator's page: the ticks and unticks since the list was saved. */
export const changeUsersInputSchema = z.object({
  addedUserIds: z.array(userId).max(100_000),
  removedUserIds: z.array(userId).max(100_000),
});
export type ChangeUsersInput = z.infer<typeof changeUsersInputSchema>;
export const addedSchema = z.object({ added: z.number().int() });

// ---------- members ----------

export const myClassroomSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  accessType: z.enum(classroomAccessTypes),
  organizationTitle: z.string(),
  previewImageUrl: z.string().nullable(),
  previewPdfUrl: z.string().nullable(),
  expiresAt: z.string(),
  videoCount: z.number().int(),
});
export type MyClassroom = z.infer<typeof myClassroomSchema>;
export const myClassroomListSchema = z.object({ items: z.array(myClassroomSchema) });

const expiryWarningSchema = z.object({
  classroomId: z.string(),
  title: z.string(),
  expiresAt: z.string(),
  timeLeft: z.string(),
});
export type ExpiryWarning = z.infer<typeof expiryWarningSchema>;
export const expiryWarningListSchema = z.object({ items: z.array(expiryWarningSchema) });

// ---------- aula administrators ----------

const managedClassroomRowSchema = z.object({
  id: z.string(),
  title: z.string(),
  organizationTitle: z.string(),
  userCount: z.number().int(),
  expiresAt: z.string(),
});
export type ManagedClassroomRow = z.infer<typeof managedClassroomRowSchema>;
export const managedClassroomListSchema = z.object({ items: z.array(managedClassroomRowSchema) });

export const managedClassroomSchema = managedClassroomRowSchema.extend({
  organizationType: z.enum(organizationTypes),
});
export type ManagedClassroom = z.infer<typeof managedClassroomSchema>;
