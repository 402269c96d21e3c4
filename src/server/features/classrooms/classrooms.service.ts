import { and, eq, exists, gt, or, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { classroomProcedures, classroomUsers, classrooms } from '#server/db/schema/index.ts';

export function createClassroomsService(deps: { db: Db }) {
  const { db } = deps;

  /** DESIGN.md: an active, unexpired aula opens its videos to any account when 'Acceso libre', else to its list and administrator. */
  async function opensProcedureFor(userId: string, procedureId: string): Promise<boolean> {
    const rows = await db
      .select({ id: classrooms.id })
      .from(classrooms)
      .innerJoin(classroomProcedures, eq(classroomProcedures.classroomId, classrooms.id))
      .where(
        and(
          eq(classroomProcedures.procedureId, procedureId),
          eq(classrooms.isActive, true),
          gt(classrooms.expiresAt, sql`now()`),
          or(
            eq(classrooms.accessType, 'Acceso libre'),
            eq(classrooms.adminUserId, userId),
            exists(
              db
                .select({ one: sql`1` })
                .from(classroomUsers)
                .where(and(eq(classroomUsers.classroomId, classrooms.id), eq(classroomUsers.userId, userId))),
            ),
          ),
        ),
      )
      .limit(1);
    return rows.length > 0;
  }

  return { opensProcedureFor };
}

export type ClassroomsService = ReturnType<typeof createClassroomsService>;
