import { and, asc, count, desc, eq, inArray, isNotNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { diplomaUsers, diplomas, users } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { messages } from '#shared/messages.ts';
import {
  enrollableTypes,
  type DiplomaUserPage,
  type DiplomaUsersQuery,
} from '#shared/diplomas/diplomas.admin.schemas.ts';
import { adminPageSize } from '#shared/records.schemas.ts';
import { foldForSearch } from '#shared/text.ts';
import { containsPattern } from '#server/db/search-sql.ts';
import type { ImportInput, ManagedImportPreview } from '#shared/classrooms/classrooms.schemas.ts';
import { readImportLines } from '#server/services/import-lines.ts';

const batch = 5000;

const reasons = {
  ok: 'Se agregará al diplomado',
  already: 'Ya está en el diplomado',
  invalid: 'No contiene un correo válido',
  blank: 'Línea vacía',
  unknown: 'No hay ninguna cuenta con este correo',
  notEnrollable: 'La cuenta no es Premium, Legacy ni Admin: no puede tomar el diplomado',
  // a diploma administrator sees only the accounts a diploma takes: an unknown address and another account look alike
  refused: 'No se puede agregar: ninguna cuenta Premium, Legacy o Admin tiene este correo',
} as const;

const isEnrollable = (type: string) => (enrollableTypes as readonly string[]).includes(type);

type MustFind = (id: string) => Promise<typeof diplomas.$inferSelect>;
/** Who is in a diploma ('Administrar Usuarios'). */
export function createDiplomaMembersAdmin(deps: { db: Db; mustFind: MustFind }) {
  const { db, mustFind } = deps;

  /**
   * Premium, Legacy and Admin accounts with a mark on those in the diploma (and anyone else still in it), one page
   * at a time: searched, sorted and counted here, since the whole list was every paying member of the site.
   */
  async function listUsers(id: string, query: DiplomaUsersQuery): Promise<DiplomaUserPage> {
    await mustFind(id);
    const inDiploma = and(eq(diplomaUsers.userId, users.id), eq(diplomaUsers.diplomaId, id));
    const conditions: (SQL | undefined)[] = [
      query.assignedOnly
        ? isNotNull(diplomaUsers.userId)
        : or(inArray(users.type, [...enrollableTypes]), isNotNull(diplomaUsers.userId)),
    ];
    if (query.q) conditions.push(sql`${users.searchText} like ${containsPattern(foldForSearch(query.q))}`);
    const where = and(...conditions);
    const column = {
      assigned: sql`${diplomaUsers.userId} is not null`,
      name: users.name,
      email: users.email,
      type: users.type,
      beganAt: diplomaUsers.beganAt,
    }[query.sort];
    const [rows, [totalRow]] = await Promise.all([
      db
        .select({ id: users.id, name: users.name, email: users.email, type: users.type, beganAt: diplomaUsers.beganAt })
        .from(users)
        .leftJoin(diplomaUsers, inDiploma)
        .where(where)
        .orderBy(query.dir === 'asc' ? asc(column) : desc(column), asc(users.email), asc(users.id))
        .limit(adminPageSize)
        .offset((query.page - 1) * adminPageSize),
      db.select({ total: count() }).from(users).leftJoin(diplomaUsers, inDiploma).where(where),
    ]);
    return {
      items: rows.map((row) => ({
        id: row.id,
        name: row.name,
        email: row.email,
        type: row.type,
        assigned: row.beganAt !== null,
        beganAt: row.beganAt?.toISOString() ?? null,
      })),
      total: totalRow?.total ?? 0,
    };
  }

  /** Adds (recording when the user began) or removes one user; repeating either is harmless. */
  async function setUserAssigned(id: string, userId: string, assigned: boolean): Promise<void> {
    await mustFind(id);
    if (!assigned) {
      await db.delete(diplomaUsers).where(and(eq(diplomaUsers.diplomaId, id), eq(diplomaUsers.userId, userId)));
      return;
    }
    const [user] = await db.select({ type: users.type }).from(users).where(eq(users.id, userId));
    if (!user) throw new AppError('NOT_FOUND');
    if (!(enrollableTypes as readonly string[]).includes(user.type)) {
      throw new AppError('VALIDATION', { fields: { userId: messages.diplomaUserNotEnrollable } });
    }
    await db.insert(diplomaUsers).values({ diplomaId: id, userId }).onConflictDoNothing();
  }
  /**
   * 'Importar' in 'Administrar Usuarios': line by line, will be added or not and why; writes nothing. A diploma
   * administrator (`detailed` false) learns nothing of accounts the diploma would not take.
   */
  async function previewImport(id: string, source: ImportInput, detailed: boolean): Promise<ManagedImportPreview> {
    await mustFind(id);
    const lines = await readImportLines(source);
    const emails = [...new Set(lines.map((line) => line.email).filter((email): email is string => email !== null))];
    const byEmail = new Map<string, { id: string; name: string; email: string; type: string; inDiploma: boolean }>();
    for (let start = 0; start < emails.length; start += batch) {
      const rows = await db
        .select({
          id: users.id,
          name: users.name,
          email: users.email,
          type: users.type,
          member: diplomaUsers.userId,
        })
        .from(users)
        .leftJoin(diplomaUsers, and(eq(diplomaUsers.userId, users.id), eq(diplomaUsers.diplomaId, id)))
        .where(inArray(users.email, emails.slice(start, start + batch)));
      for (const row of rows) byEmail.set(row.email, { ...row, inDiploma: row.member !== null });
    }
    const firstLine = new Map<string, number>();
    const matched: ManagedImportPreview['matched'] = [];
    const refused = (line: { line: number; text: string }, reason: string) =>
      ({ line: line.line, text: line.text, status: 'refused', reason }) as const;
    const result = lines.map((line) => {
      if (!line.text) return refused(line, reasons.blank);
      if (!line.email) return refused(line, reasons.invalid);
      const seen = firstLine.get(line.email);
      if (seen !== undefined) return refused(line, `Repetido: ya aparece en la línea ${seen}`);
      firstLine.set(line.email, line.line);
      const account = byEmail.get(line.email);
      if (!account) return refused(line, detailed ? reasons.unknown : reasons.refused);
      if (!isEnrollable(account.type)) return refused(line, detailed ? reasons.notEnrollable : reasons.refused);
      if (account.inDiploma) return refused(line, reasons.already);
      matched.push({ id: account.id, name: account.name, email: account.email });
      return { line: line.line, text: line.text, status: 'ok' as const, reason: reasons.ok };
    });
    return { lines: result, matched };
  }

  /** Adds accounts in one transaction; if any is not one a diploma takes, nobody is added. */
  async function addUsers(id: string, userIds: string[]): Promise<number> {
    await mustFind(id);
    const unique = [...new Set(userIds)];
    return db.transaction(async (tx) => {
      let allowed = 0;
      for (let start = 0; start < unique.length; start += batch) {
        const rows = await tx
          .select({ id: users.id })
          .from(users)
          .where(and(inArray(users.id, unique.slice(start, start + batch)), inArray(users.type, [...enrollableTypes])));
        allowed += rows.length;
      }
      if (allowed !== unique.length) throw new AppError('DIPLOMA_USERS_NOT_ALLOWED');
      let added = 0;
      for (let start = 0; start < unique.length; start += batch) {
        const rows = await tx
          .insert(diplomaUsers)
          .values(unique.slice(start, start + batch).map((userId) => ({ diplomaId: id, userId })))
          .onConflictDoNothing()
          .returning({ userId: diplomaUsers.userId });
        added += rows.length;
      }
      return added;
    });
  }

  return { listUsers, setUserAssigned, previewImport, addUsers };
}
