import { and, asc, desc, eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { diplomaUsers, diplomas } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import type { DiplomaUserPage, DiplomaUsersQuery, ManagedDiploma } from '#shared/diplomas/diplomas.admin.schemas.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import type { DiplomasAdminService } from './diplomas.admin.service.ts';
import type { ImportInput, ManagedImportPreview } from '#shared/classrooms/classrooms.schemas.ts';

/** Diploma administrators (adminDiplomado): their own active diplomas and those diplomas' user lists, nothing else. */
export function createManagedDiplomasService(deps: { db: Db; diplomasAdmin: DiplomasAdminService }) {
  const { db, diplomasAdmin } = deps;

  const userCount = (diplomaId: typeof diplomas.id) => db.$count(diplomaUsers, eq(diplomaUsers.diplomaId, diplomaId));

  /** Whether the user administers an active diploma (the same test as the profile's isDiplomaAdmin). */
  async function isAdministrator(userId: string): Promise<boolean> {
    const [row] = await db
      .select({ id: diplomas.id })
      .from(diplomas)
      .where(and(eq(diplomas.adminUserId, userId), eq(diplomas.isActive, true)))
      .limit(1);
    return Boolean(row);
  }

  /** The user's own active diplomas, newest first. */
  async function listOwn(user: UserRow): Promise<ManagedDiploma[]> {
    const rows = await db
      .select({
        id: diplomas.id,
        title: diplomas.title,
        isExternal: diplomas.isExternal,
        descriptionHtml: diplomas.descriptionHtml,
        previewImage: diplomas.previewImage,
        createdAt: diplomas.createdAt,
        userCount: userCount(diplomas.id),
      })
      .from(diplomas)
      .where(and(eq(diplomas.adminUserId, user.id), eq(diplomas.isActive, true)))
      .orderBy(desc(diplomas.createdAt), asc(diplomas.id));
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      kind: row.isExternal ? 'External' : 'CxVet',
      descriptionHtml: row.descriptionHtml,
      previewImage: row.previewImage,
      userCount: Number(row.userCount),
      createdAt: row.createdAt.toISOString(),
    }));
  }

  /** One diploma this user administers and is active; anything else is 404, so ids reveal nothing. */
  async function getOwn(user: UserRow, id: string): Promise<ManagedDiploma> {
    const [row] = (await listOwn(user)).filter((diploma) => diploma.id === id);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  async function listUsers(user: UserRow, id: string, query: DiplomaUsersQuery): Promise<DiplomaUserPage> {
    await getOwn(user, id);
    return diplomasAdmin.listUsers(id, query);
  }

  async function setUserAssigned(user: UserRow, id: string, userId: string, assigned: boolean): Promise<void> {
    await getOwn(user, id);
    await diplomasAdmin.setUserAssigned(id, userId, assigned);
  }

  async function previewImport(user: UserRow, id: string, source: ImportInput): Promise<ManagedImportPreview> {
    await getOwn(user, id);
    return diplomasAdmin.previewImport(id, source, false);
  }

  async function addUsers(user: UserRow, id: string, userIds: string[]): Promise<number> {
    await getOwn(user, id);
    return diplomasAdmin.addUsers(id, userIds);
  }

  return { isAdministrator, listOwn, getOwn, listUsers, setUserAssigned, previewImport, addUsers };
}

export type ManagedDiplomasService = ReturnType<typeof createManagedDiplomasService>;
