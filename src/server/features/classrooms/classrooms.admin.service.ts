import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import {
  classroomProcedures,
  classroomUsers,
  classrooms,
  organizations,
  procedureTags,
  procedures,
  tags,
  users,
} from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { messages } from '#shared/messages.ts';
import { uploadTargets } from '#shared/uploads/uploads.rules.ts';
import type {
  AdminClassroom,
  AdminClassroomRow,
  ClassroomValues,
  ClassroomVideoOption,
} from '#shared/classrooms/classrooms.schemas.ts';
import type { UploadsService } from '#server/features/uploads/uploads.service.ts';
import type { Audience, ClassroomMembersService } from './classroom-members.service.ts';

/** The console's aulas (spec 3 §2): list, form, activation and deletion. */
export function createAdminClassroomsService(deps: {
  db: Db;
  uploads: UploadsService;
  members: ClassroomMembersService;
}) {
  const { db, uploads, members } = deps;

  async function find(id: string) {
    const [row] = await db.select().from(classrooms).where(eq(classrooms.id, id));
    return row ?? null;
  }

  async function list(): Promise<AdminClassroomRow[]> {
    const videoCounts = db
      .select({ classroomId: classroomProcedures.classroomId, total: count().as('videos') })
      .from(classroomProcedures)
      .groupBy(classroomProcedures.classroomId)
      .as('videos');
    const userCounts = db
      .select({ classroomId: classroomUsers.classroomId, total: count().as('users') })
      .from(classroomUsers)
      .groupBy(classroomUsers.classroomId)
      .as('users_count');
    const rows = await db
      .select({
        classroom: classrooms,
        organizationTitle: organizations.title,
        videos: videoCounts.total,
        users: userCounts.total,
      })
      .from(classrooms)
      .innerJoin(organizations, eq(organizations.id, classrooms.organizationId))
      .leftJoin(videoCounts, eq(videoCounts.classroomId, classrooms.id))
      .leftJoin(userCounts, eq(userCounts.classroomId, classrooms.id))
      .orderBy(desc(classrooms.createdAt));
    return rows.map(({ classroom, organizationTitle, videos, users }) => ({
      id: classroom.id,
      title: classroom.title,
      accessType: classroom.accessType,
      organizationType: classroom.organizationType,
      organizationTitle,
      videoCount: Number(videos ?? 0),
      userCount: Number(users ?? 0),
      isActive: classroom.isActive,
      expiresAt: classroom.expiresAt.toISOString(),
    }));
  }

  async function get(id: string): Promise<AdminClassroom> {
    const row = await find(id);
    if (!row) throw new AppError('NOT_FOUND');
    const [videoRows, [counted], [administrator]] = await Promise.all([
      db
        .select({ id: classroomProcedures.procedureId })
        .from(classroomProcedures)
        .where(eq(classroomProcedures.classroomId, id))
        .orderBy(asc(classroomProcedures.position)),
      db.select({ total: count() }).from(classroomUsers).where(eq(classroomUsers.classroomId, id)),
      row.adminUserId ? db.select({ email: users.email }).from(users).where(eq(users.id, row.adminUserId)) : [],
    ]);
    return {
      id: row.id,
      title: row.title,
      description: row.description,
      accessType: row.accessType,
      organizationType: row.organizationType,
      organizationId: row.organizationId,
      expiresAt: row.expiresAt.toISOString(),
      previewImage: row.previewImage,
      previewPdf: row.previewPdf,
      procedureIds: videoRows.map((video) => video.id),
      userCount: counted?.total ?? 0,
      adminUserId: row.adminUserId,
      adminUserEmail: administrator?.email ?? null,
      isActive: row.isActive,
    };
  }

  /**
   * Creates or replaces an aula with its videos and (Universidad only) its administrator and the changes to its users:
   * the saved list is kept only while the organization stays the same, as the form empties it on a change.
   */
  async function save(id: string, input: ClassroomValues): Promise<AdminClassroom> {
    const [organization] = await db.select().from(organizations).where(eq(organizations.id, input.organizationId));
    if (!organization || organization.type !== input.organizationType) {
      throw new AppError('VALIDATION', { fields: { organizationId: messages.fieldRequired } });
    }
    const procedureIds = [...new Set(input.procedureIds)];
    const known = await db.select({ id: procedures.id }).from(procedures).where(inArray(procedures.id, procedureIds));
    if (known.length !== procedureIds.length)
      throw new AppError('VALIDATION', { fields: { procedureIds: messages.classroomVideoRequired } });
    // spec 3 §2: only a Universidad aula has a users table and an administrator
    const isUniversity = input.organizationType === 'Universidad';
    const audience: Audience = { organizationType: input.organizationType, organizationId: input.organizationId };
    const addedUserIds = isUniversity ? input.addedUserIds : [];
    const adminUserId = isUniversity ? input.adminUserId : null;
    if (addedUserIds.length > 0) await members.assertAllowed(audience, addedUserIds);
    if (adminUserId) await members.assertAccounts([adminUserId]);

    const current = await find(id);
    const folder = `aulas/${id}`;
    const { claimed, obsolete } = await uploads.plan([
      {
        field: 'previewImage',
        next: input.previewImage,
        current: current?.previewImage ?? null,
        folder,
        kinds: uploadTargets['classroom-preview-image'].kinds,
      },
      {
        field: 'previewPdf',
        next: input.previewPdf,
        current: current?.previewPdf ?? null,
        folder,
        kinds: uploadTargets['classroom-preview-pdf'].kinds,
      },
    ]);
    const values = {
      title: input.title,
      description: input.description,
      accessType: input.accessType,
      organizationType: input.organizationType,
      organizationId: input.organizationId,
      adminUserId,
      previewImage: input.previewImage,
      previewPdf: input.previewPdf,
      expiresAt: new Date(input.expiresAt),
    };
    await db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      // a new aula is made here, or after whoever is making it; then its row is locked, so two saves run in turn
      await tx
        .insert(classrooms)
        .values({ id, ...values })
        .onConflictDoNothing();
      const saved = await members.lockAudience(tx, id);
      // the organization read under the lock: a save at the same time may have moved the aula to another
      const keepSaved = isUniversity && saved.organizationId === input.organizationId;
      await tx.update(classrooms).set(values).where(eq(classrooms.id, id));
      await tx.delete(classroomProcedures).where(eq(classroomProcedures.classroomId, id));
      await tx
        .insert(classroomProcedures)
        .values(procedureIds.map((procedureId, position) => ({ classroomId: id, procedureId, position })));
      await members.applyChanges(tx, id, {
        addedUserIds,
        removedUserIds: input.removedUserIds,
        keepSaved,
      });
      await uploads.claim(claimed, tx);
    });
    await uploads.removeFiles(obsolete);
    return get(id);
  }

  /** Spec 3 §4: activation and deactivation set active and empty the users list. */
  async function setActive(id: string, isActive: boolean): Promise<void> {
    await db.transaction(async (tx) => {
      const updated = await tx
        .update(classrooms)
        .set({ isActive })
        .where(eq(classrooms.id, id))
        .returning({ id: classrooms.id });
      if (updated.length === 0) throw new AppError('NOT_FOUND');
      await tx.delete(classroomUsers).where(eq(classroomUsers.classroomId, id));
    });
  }

  /** Deletes an inactive aula and its files; an active one is refused in the same statement, so no toggle can race past it. */
  async function remove(id: string): Promise<void> {
    const [deleted] = await db
      .delete(classrooms)
      .where(and(eq(classrooms.id, id), eq(classrooms.isActive, false)))
      .returning();
    if (!deleted) throw new AppError((await find(id)) ? 'CLASSROOM_ACTIVE' : 'NOT_FOUND');
    await uploads.removeFiles([deleted.previewImage, deleted.previewPdf]);
  }

  /** The videos table of the form: every procedure with its tags. */
  async function videoOptions(): Promise<ClassroomVideoOption[]> {
    const [rows, tagRows] = await Promise.all([
      db
        .select({ id: procedures.id, name: procedures.name, species: procedures.species, type: procedures.type })
        .from(procedures)
        .orderBy(asc(procedures.name)),
      db
        .select({ procedureId: procedureTags.procedureId, name: tags.name })
        .from(procedureTags)
        .innerJoin(tags, eq(tags.id, procedureTags.tagId))
        .orderBy(asc(tags.name)),
    ]);
    const byProcedure = new Map<string, string[]>();
    for (const tag of tagRows)
      byProcedure.set(tag.procedureId, [...(byProcedure.get(tag.procedureId) ?? []), tag.name]);
    return rows.map((row) => ({ ...row, tags: byProcedure.get(row.id) ?? [] }));
  }

  async function audienceOf(id: string): Promise<Audience & { title: string }> {
    const row = await find(id);
    if (!row) throw new AppError('NOT_FOUND');
    return { organizationType: row.organizationType, organizationId: row.organizationId, title: row.title };
  }

  return { list, get, save, setActive, remove, videoOptions, audienceOf };
}

export type AdminClassroomsService = ReturnType<typeof createAdminClassroomsService>;
