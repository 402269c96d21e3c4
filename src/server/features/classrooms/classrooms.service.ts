import { and, asc, eq, exists, gt, inArray, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { classroomProcedures, classroomUsers, classrooms } from '#server/db/schema/index.ts';

export function createClassroomsService(deps: { db: Db }) {
  const { db } = deps;

  /** DESIGN.md: an active, unexpired aula opens its videos to any account when 'Acceso libre', else to its list and administrator. */
  async function proceduresOpenedFor(userId: string, procedureIds: string[]): Promise<Set<string>> {
    if (procedureIds.length === 0) return new Set();
    const rows = await db
      .selectDistinct({ procedureId: classroomProcedures.procedureId })
      .from(classrooms)
      .innerJoin(classroomProcedures, eq(classroomProcedures.classroomId, classrooms.id))
      .where(
        and(
          inArray(classroomProcedures.procedureId, procedureIds),
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
      );
    return new Set(rows.map((row) => row.procedureId));
  }

  async function opensProcedureFor(userId: string, procedureId: string): Promise<boolean> {
    return (await proceduresOpenedFor(userId, [procedureId])).has(procedureId);
  }

  /** Active, unexpired aulas: the catalogue's filter sidebar. */
  async function listOpen(): Promise<{ id: string; title: string }[]> {
    return db
      .select({ id: classrooms.id, title: classrooms.title })
      .from(classrooms)
      .where(and(eq(classrooms.isActive, true), gt(classrooms.expiresAt, sql`now()`)))
      .orderBy(asc(classrooms.title));
  }

  /** SQL condition: the procedure in `procedureId` belongs to this active aula (for the catalogue filter). */
  function holdsProcedure(classroomId: string, procedureId: AnyColumn): SQL {
    return exists(
      db
        .select({ one: sql`1` })
        .from(classroomProcedures)
        .innerJoin(classrooms, eq(classrooms.id, classroomProcedures.classroomId))
        .where(
          and(
            eq(classroomProcedures.procedureId, procedureId),
            eq(classroomProcedures.classroomId, classroomId),
            eq(classrooms.isActive, true),
          ),
        ),
    );
  }

  return { proceduresOpenedFor, opensProcedureFor, listOpen, holdsProcedure };
}

export type ClassroomsService = ReturnType<typeof createClassroomsService>;
