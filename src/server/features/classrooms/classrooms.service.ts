import { and, asc, count, eq, exists, gt, inArray, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { isAdmin } from '#shared/accounts/accounts.rules.ts';
import type { Db } from '#server/db/client.ts';
import {
  classroomProcedures,
  classroomUsers,
  classroomWarnings,
  classrooms,
  organizations,
} from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { canEnterClassroom, dueWarningKinds, timeLeftText } from '#shared/classrooms/classrooms.rules.ts';
import type { ExpiryWarning, MyClassroom } from '#shared/classrooms/classrooms.schemas.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import { mediaUrl } from '#server/services/media-url.ts';

type ClassroomRow = typeof classrooms.$inferSelect;

/** Access to aulas for members: the rule of DESIGN.md, the catalogue's and media route's helpers, expiry warnings. */
export function createClassroomsService(deps: { db: Db; now?: () => Date }) {
  const { db } = deps;
  const now = deps.now ?? (() => new Date());

  const isMemberSql = (userId: string) =>
    exists(
      db
        .select({ one: sql`1` })
        .from(classroomUsers)
        .where(and(eq(classroomUsers.classroomId, classrooms.id), eq(classroomUsers.userId, userId))),
    );

  /** SQL: active, unexpired and open to this account (Admins enter every controlled aula). */
  function openTo(user: Pick<UserRow, 'id' | 'type'>, at: Date): SQL {
    const audience = isAdmin(user)
      ? undefined
      : or(eq(classrooms.accessType, 'Acceso libre'), eq(classrooms.adminUserId, user.id), isMemberSql(user.id));
    return and(eq(classrooms.isActive, true), gt(classrooms.expiresAt, at), audience)!;
  }

  /** DESIGN.md: an active, unexpired aula opens its videos to any account when 'Acceso libre', else to its list and administrator. */
  async function proceduresOpenedFor(userId: string, procedureIds: string[]): Promise<Set<string>> {
    if (procedureIds.length === 0) return new Set();
    const rows = await db
      .selectDistinct({ procedureId: classroomProcedures.procedureId })
      .from(classrooms)
      .innerJoin(classroomProcedures, eq(classroomProcedures.classroomId, classrooms.id))
      .where(
        and(inArray(classroomProcedures.procedureId, procedureIds), openTo({ id: userId, type: 'Gratis' }, now())),
      );
    return new Set(rows.map((row) => row.procedureId));
  }

  async function opensProcedureFor(userId: string, procedureId: string): Promise<boolean> {
    return (await proceduresOpenedFor(userId, [procedureId])).has(procedureId);
  }

  /** Until when an aula opens this procedure to this account (the latest expiry of those that do); null if none does. */
  async function procedureOpenUntil(userId: string, procedureId: string): Promise<Date | null> {
    const [row] = await db
      .select({ until: sql<Date | string | null>`max(${classrooms.expiresAt})` })
      .from(classrooms)
      .innerJoin(classroomProcedures, eq(classroomProcedures.classroomId, classrooms.id))
      .where(and(eq(classroomProcedures.procedureId, procedureId), openTo({ id: userId, type: 'Gratis' }, now())));
    return row?.until ? new Date(row.until) : null;
  }

  /** Active, unexpired aulas: the catalogue's filter sidebar. */
  async function listOpen(): Promise<{ id: string; title: string }[]> {
    return db
      .select({ id: classrooms.id, title: classrooms.title })
      .from(classrooms)
      .where(and(eq(classrooms.isActive, true), gt(classrooms.expiresAt, now())))
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

  const videoCount = db
    .select({ classroomId: classroomProcedures.classroomId, total: count().as('total') })
    .from(classroomProcedures)
    .groupBy(classroomProcedures.classroomId)
    .as('video_count');

  function toMine(row: ClassroomRow, organizationTitle: string, videos: number | null): MyClassroom {
    return {
      id: row.id,
      title: row.title,
      description: row.description,
      accessType: row.accessType,
      organizationTitle,
      previewImageUrl: mediaUrl(row.previewImage),
      previewPdfUrl: mediaUrl(row.previewPdf),
      expiresAt: row.expiresAt.toISOString(),
      videoCount: Number(videos ?? 0),
    };
  }

  /** My Aulas: the aulas this account may enter, expiring in the future, soonest first. */
  async function listMine(user: UserRow): Promise<MyClassroom[]> {
    const rows = await db
      .select({ classroom: classrooms, organizationTitle: organizations.title, videos: videoCount.total })
      .from(classrooms)
      .innerJoin(organizations, eq(organizations.id, classrooms.organizationId))
      .leftJoin(videoCount, eq(videoCount.classroomId, classrooms.id))
      .where(openTo(user, now()))
      .orderBy(asc(classrooms.expiresAt), asc(classrooms.title));
    return rows.map((row) => toMine(row.classroom, row.organizationTitle, row.videos));
  }

  /** One aula for a member; FORBIDDEN (the web sends them to /mis-aulas) when they may not enter it. */
  async function getMine(user: UserRow, id: string): Promise<MyClassroom> {
    const [row] = await db
      .select({ classroom: classrooms, organizationTitle: organizations.title, videos: videoCount.total })
      .from(classrooms)
      .innerJoin(organizations, eq(organizations.id, classrooms.organizationId))
      .leftJoin(videoCount, eq(videoCount.classroomId, classrooms.id))
      .where(eq(classrooms.id, id));
    if (!row) throw new AppError('NOT_FOUND');
    const [member] = await db
      .select({ userId: classroomUsers.userId })
      .from(classroomUsers)
      .where(and(eq(classroomUsers.classroomId, id), eq(classroomUsers.userId, user.id)));
    const viewer = { id: user.id, isAdmin: isAdmin(user), isMember: Boolean(member) };
    if (!canEnterClassroom(viewer, row.classroom, now())) throw new AppError('FORBIDDEN');
    return toMine(row.classroom, row.organizationTitle, row.videos);
  }

  /**
   * Spec 3 §4: a member of an aula is warned once under 10 days and once more under 3 days before it expires.
   * The warning is recorded with insert … on conflict do nothing, so two tabs at once never both show it.
   */
  async function claimExpiryWarnings(user: UserRow): Promise<ExpiryWarning[]> {
    const at = now();
    const horizon = new Date(at.getTime() + 10 * 86_400_000);
    const rows = await db
      .select({ id: classrooms.id, title: classrooms.title, expiresAt: classrooms.expiresAt })
      .from(classrooms)
      .innerJoin(classroomUsers, and(eq(classroomUsers.classroomId, classrooms.id), eq(classroomUsers.userId, user.id)))
      .where(
        and(eq(classrooms.isActive, true), gt(classrooms.expiresAt, at), sql`${classrooms.expiresAt} < ${horizon}`),
      )
      .orderBy(asc(classrooms.expiresAt));
    const warnings: ExpiryWarning[] = [];
    for (const row of rows) {
      const kinds = dueWarningKinds(row.expiresAt, at);
      if (kinds.length === 0) continue;
      const inserted = await db
        .insert(classroomWarnings)
        .values(kinds.map((kind) => ({ classroomId: row.id, userId: user.id, kind, warnedAt: at })))
        .onConflictDoNothing()
        .returning({ kind: classroomWarnings.kind });
      if (inserted.length === 0) continue;
      warnings.push({
        classroomId: row.id,
        title: row.title,
        expiresAt: row.expiresAt.toISOString(),
        timeLeft: timeLeftText(row.expiresAt, at),
      });
    }
    return warnings;
  }

  return {
    proceduresOpenedFor,
    opensProcedureFor,
    procedureOpenUntil,
    listOpen,
    holdsProcedure,
    listMine,
    getMine,
    claimExpiryWarnings,
  };
}

export type ClassroomsService = ReturnType<typeof createClassroomsService>;
