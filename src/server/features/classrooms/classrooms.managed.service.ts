import { and, asc, count, eq, or, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { classroomCoAdmins, classroomUsers, classrooms, organizations } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import type { ManagedClassroom, ManagedClassroomRow } from '#shared/classrooms/classrooms.schemas.ts';
import type { Audience } from './classroom-members.service.ts';

/** Aula administrators (spec 3 §6 adminAula): their own active aulas, and only those aulas' users lists. */
export function createManagedClassroomsService(deps: { db: Db }) {
  const { db } = deps;

  // its administrator, or a co-administrator (an instructor of a course linked through LTI)
  const owned = (userId: string) =>
    and(
      or(
        eq(classrooms.adminUserId, userId),
        sql`exists (select 1 from ${classroomCoAdmins} where ${classroomCoAdmins.classroomId} = ${classrooms.id} and ${classroomCoAdmins.userId} = ${userId})`,
      ),
      eq(classrooms.isActive, true),
    );

  async function isAdministrator(userId: string): Promise<boolean> {
    const [row] = await db.select({ id: classrooms.id }).from(classrooms).where(owned(userId)).limit(1);
    return Boolean(row);
  }

  async function list(userId: string): Promise<ManagedClassroomRow[]> {
    const userCounts = db
      .select({ classroomId: classroomUsers.classroomId, total: count().as('users') })
      .from(classroomUsers)
      .groupBy(classroomUsers.classroomId)
      .as('users_count');
    const rows = await db
      .select({ classroom: classrooms, organizationTitle: organizations.title, users: userCounts.total })
      .from(classrooms)
      .innerJoin(organizations, eq(organizations.id, classrooms.organizationId))
      .leftJoin(userCounts, eq(userCounts.classroomId, classrooms.id))
      .where(owned(userId))
      .orderBy(asc(classrooms.title));
    return rows.map(({ classroom, organizationTitle, users }) => ({
      id: classroom.id,
      title: classroom.title,
      organizationTitle,
      userCount: Number(users ?? 0),
      expiresAt: classroom.expiresAt.toISOString(),
    }));
  }

  /** The aula if this user administers it and it is active; NOT_FOUND for any other, so ids reveal nothing. */
  async function ownClassroom(userId: string, id: string) {
    const [row] = await db
      .select({ classroom: classrooms, organizationTitle: organizations.title })
      .from(classrooms)
      .innerJoin(organizations, eq(organizations.id, classrooms.organizationId))
      .where(and(eq(classrooms.id, id), owned(userId)));
    if (!row) throw new AppError('NOT_FOUND');
    const audience: Audience = {
      organizationType: row.classroom.organizationType,
      organizationId: row.classroom.organizationId,
    };
    return { ...row, audience };
  }

  async function get(userId: string, id: string): Promise<ManagedClassroom> {
    const { classroom, organizationTitle } = await ownClassroom(userId, id);
    const [counted] = await db
      .select({ total: count() })
      .from(classroomUsers)
      .where(eq(classroomUsers.classroomId, id));
    return {
      id: classroom.id,
      title: classroom.title,
      organizationTitle,
      organizationType: classroom.organizationType,
      userCount: counted?.total ?? 0,
      expiresAt: classroom.expiresAt.toISOString(),
    };
  }

  return { isAdministrator, list, ownClassroom, get };
}

export type ManagedClassroomsService = ReturnType<typeof createManagedClassroomsService>;
