import { stripAccents } from '#shared/text.ts';
import { and, asc, count, desc, eq, inArray, isNotNull, max, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { classroomUsers, classrooms, sessions, users } from '#server/db/schema/index.ts';
import type { Readable } from 'node:stream';
import { readImportLines } from '#server/services/import-lines.ts';
import { AppError } from '#shared/errors.ts';
import type { OrganizationType } from '#shared/organizations/organizations.rules.ts';
import type {
  ChangeUsersInput,
  ClassroomCandidatePage,
  ClassroomCandidatesQuery,
  ClassroomMember,
  ImportInput,
  ImportLineResult,
  ImportPreview,
  ManagedImportPreview,
} from '#shared/classrooms/classrooms.schemas.ts';
import { createXlsxWriter } from '#server/services/xlsx.ts';
import { adminPageSize } from '#shared/records.schemas.ts';
import { foldForSearch } from '#shared/text.ts';
import { containsPattern } from '#server/db/search-sql.ts';

/** Who may be on an aula's list: any account but an Admin, only the organization's members for a Universidad. */
export type Audience = { organizationType: OrganizationType; organizationId: string };

/**
 * SQL on `users`: the accounts an aula of this audience admits. The one rule for its candidates, its saves and its
 * imports; an Admin enters every aula unlisted, so a list never needs one (and never shows one to an administrator).
 */
function admittedBy(audience: Audience): SQL {
  return and(
    ne(users.type, 'Admin'),
    audience.organizationType === 'Universidad' ? eq(users.organizationId, audience.organizationId) : undefined,
  )!;
}

const insertBatch = 5000;
const exportRowsPerWrite = 200;

const member = (row: { id: string; name: string; email: string }): ClassroomMember => ({
  id: row.id,
  name: row.name,
  email: row.email,
});

const reasons = {
  ok: 'Se agregará al aula',
  already: 'Ya está en el aula',
  unknown: 'No hay ninguna cuenta con este correo',
  outside: 'La cuenta no pertenece a la organización del aula',
  admin: 'Es una cuenta de Admin: entra a todas las aulas sin estar en la lista',
  invalid: 'No contiene un correo válido',
  blank: 'Línea vacía',
  // one reason for an unknown address, another organization's account and an Admin's: none is told apart
  refused: 'No se puede agregar: ninguna cuenta que pueda entrar a esta aula tiene este correo',
} as const;

export function createClassroomMembersService(deps: { db: Db; timeZone: string }) {
  const { db } = deps;

  /** How many of these ids (each once) are accounts matching `condition`. */
  async function countAccounts(
    ids: string[],
    condition?: SQL,
    executor: Db = db,
  ): Promise<{ unique: number; found: number }> {
    const unique = [...new Set(ids)];
    let found = 0;
    for (let start = 0; start < unique.length; start += insertBatch) {
      const [row] = await executor
        .select({ total: count() })
        .from(users)
        .where(and(inArray(users.id, unique.slice(start, start + insertBatch)), condition));
      found += row?.total ?? 0;
    }
    return { unique: unique.length, found };
  }

  /** Throws unless every id is an account the audience admits. */
  async function assertAllowed(audience: Audience, ids: string[], executor: Db = db): Promise<void> {
    const { unique, found } = await countAccounts(ids, admittedBy(audience), executor);
    if (found !== unique) throw new AppError('CLASSROOM_USERS_NOT_ALLOWED');
  }

  /** Throws unless every id is an account (an aula's administrator may be any, an Admin too). */
  async function assertAccounts(ids: string[]): Promise<void> {
    const { unique, found } = await countAccounts(ids);
    if (found !== unique) throw new AppError('CLASSROOM_USERS_NOT_ALLOWED');
  }

  /**
   * The accounts an aula of this audience admits (a Universidad's members), plus anyone still in the aula, with a mark
   * on its members; one page at a time, searched, sorted and counted here, as the whole list can be the whole site.
   */
  async function candidatePage(
    audience: Audience,
    classroomId: string | null,
    query: ClassroomCandidatesQuery,
  ): Promise<ClassroomCandidatePage> {
    const inClassroom = and(
      eq(classroomUsers.userId, users.id),
      classroomId ? eq(classroomUsers.classroomId, classroomId) : sql`false`,
    );
    const isMember = isNotNull(classroomUsers.userId);
    const conditions: (SQL | undefined)[] = [query.assignedOnly ? isMember : or(admittedBy(audience), isMember)];
    if (query.q) conditions.push(sql`${users.searchText} like ${containsPattern(foldForSearch(query.q))}`);
    const where = and(...conditions);
    const column = { assigned: sql`${classroomUsers.userId} is not null`, name: users.name, email: users.email }[
      query.sort
    ];
    const [rows, [totalRow]] = await Promise.all([
      db
        .select({ id: users.id, name: users.name, email: users.email, member: classroomUsers.userId })
        .from(users)
        .leftJoin(classroomUsers, inClassroom)
        .where(where)
        .orderBy(query.dir === 'asc' ? asc(column) : desc(column), asc(users.email), asc(users.id))
        .limit(adminPageSize)
        .offset((query.page - 1) * adminPageSize),
      db.select({ total: count() }).from(users).leftJoin(classroomUsers, inClassroom).where(where),
    ]);
    return {
      items: rows.map((row) => ({ ...member(row), assigned: row.member !== null })),
      total: totalRow?.total ?? 0,
    };
  }

  /** Line by line: which addresses match an account the aula admits, which do not and why. Writes nothing. */
  async function preview(
    audience: Audience,
    currentUserIds: Iterable<string>,
    source: ImportInput,
  ): Promise<ImportPreview> {
    const lines = await readImportLines(source);
    const current = new Set(currentUserIds);
    const emails = [...new Set(lines.map((line) => line.email).filter((email): email is string => email !== null))];
    const byEmail = new Map<
      string,
      { id: string; name: string; email: string; type: string; admitted: boolean | null }
    >();
    for (let start = 0; start < emails.length; start += insertBatch) {
      const rows = await db
        .select({
          id: users.id,
          name: users.name,
          email: users.email,
          type: users.type,
          admitted: sql<boolean | null>`${admittedBy(audience)}`,
        })
        .from(users)
        .where(inArray(users.email, emails.slice(start, start + insertBatch)));
      for (const row of rows) byEmail.set(row.email, row);
    }
    const firstLine = new Map<string, number>();
    const matched: ClassroomMember[] = [];
    const results: ImportLineResult[] = lines.map((line) => {
      const base = { line: line.line, text: line.text, email: line.email, user: null };
      if (!line.text) return { ...base, status: 'blank', reason: reasons.blank };
      if (!line.email) return { ...base, status: 'invalid', reason: reasons.invalid };
      const seen = firstLine.get(line.email);
      if (seen !== undefined)
        return { ...base, status: 'duplicate', reason: `Repetido: ya aparece en la línea ${seen}` };
      firstLine.set(line.email, line.line);
      const account = byEmail.get(line.email);
      if (!account) return { ...base, status: 'unknown', reason: reasons.unknown };
      const user = member(account);
      if (!account.admitted) {
        return { ...base, user, status: 'outside', reason: account.type === 'Admin' ? reasons.admin : reasons.outside };
      }
      if (current.has(account.id)) return { ...base, user, status: 'already', reason: reasons.already };
      matched.push(user);
      return { ...base, user, status: 'ok', reason: reasons.ok };
    });
    return { lines: results, matched };
  }

  /** The aula administrator's preview: will be added or not, no account outside what they already see. */
  async function managedPreview(
    audience: Audience,
    currentUserIds: Iterable<string>,
    source: ImportInput,
  ): Promise<ManagedImportPreview> {
    const { lines, matched } = await preview(audience, currentUserIds, source);
    // an unknown address, another organization's account and an Admin's are told apart to no one but the Admin
    return {
      lines: lines.map(({ line, text, status, reason }) => ({
        line,
        text,
        status: status === 'ok' ? 'ok' : 'refused',
        reason: status === 'unknown' || status === 'outside' ? reasons.refused : reason,
      })),
      matched,
    };
  }

  /**
   * Locks the aula's row until the transaction ends and answers whom it admits now: two changes to its list run one
   * after the other (at once, crossed ticks and unticks deadlocked on PostgreSQL), each checked against its audience.
   */
  async function lockAudience(executor: Db, classroomId: string): Promise<Audience> {
    const [row] = await executor
      .select({ organizationType: classrooms.organizationType, organizationId: classrooms.organizationId })
      .from(classrooms)
      .where(eq(classrooms.id, classroomId))
      .for('update');
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  /** Adds accounts in one transaction: every one is checked first, so a refused list adds nobody. */
  async function addUsers(classroomId: string, userIds: string[]): Promise<number> {
    const unique = [...new Set(userIds)];
    return db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      await assertAllowed(await lockAudience(tx, classroomId), unique, tx);
      let added = 0;
      for (let start = 0; start < unique.length; start += insertBatch) {
        const rows = await tx
          .insert(classroomUsers)
          .values(unique.slice(start, start + insertBatch).map((userId) => ({ classroomId, userId })))
          .onConflictDoNothing()
          .returning({ userId: classroomUsers.userId });
        added += rows.length;
      }
      return added;
    });
  }

  /**
   * Applies ticks and unticks to an aula's list inside the caller's transaction, which holds `lockAudience`;
   * `keepSaved` false starts from an empty list. Only the added accounts are checked: the caller checks them.
   */
  async function applyChanges(
    executor: Db,
    classroomId: string,
    changes: ChangeUsersInput & { keepSaved: boolean },
  ): Promise<void> {
    const added = [...new Set(changes.addedUserIds)];
    const removed = [...new Set(changes.removedUserIds)];
    if (!changes.keepSaved) await executor.delete(classroomUsers).where(eq(classroomUsers.classroomId, classroomId));
    for (let start = 0; changes.keepSaved && start < removed.length; start += insertBatch) {
      await executor
        .delete(classroomUsers)
        .where(
          and(
            eq(classroomUsers.classroomId, classroomId),
            inArray(classroomUsers.userId, removed.slice(start, start + insertBatch)),
          ),
        );
    }
    for (let start = 0; start < added.length; start += insertBatch) {
      await executor
        .insert(classroomUsers)
        .values(added.slice(start, start + insertBatch).map((userId) => ({ classroomId, userId })))
        .onConflictDoNothing();
    }
  }

  /** The aula administrator's 'Guardar': the accounts ticked must be ones the aula admits. */
  async function changeUsers(classroomId: string, changes: ChangeUsersInput): Promise<void> {
    await db.transaction(async (transaction) => {
      const tx = transaction as unknown as Db;
      const audience = await lockAudience(tx, classroomId);
      if (changes.addedUserIds.length > 0) await assertAllowed(audience, changes.addedUserIds, tx);
      await applyChanges(tx, classroomId, { ...changes, keepSaved: true });
    });
  }

  /** Ids of the aula's members, for the import's 'already in the aula'. */
  async function memberIds(classroomId: string): Promise<string[]> {
    const rows = await db
      .select({ id: classroomUsers.userId })
      .from(classroomUsers)
      .where(eq(classroomUsers.classroomId, classroomId));
    return rows.map((row) => row.id);
  }

  /** The aula's members (name, e-mail, last sign-in) as an xlsx file, streamed through the shared writer. */
  async function exportXlsx(classroomId: string, title: string): Promise<{ fileName: string; stream: Readable }> {
    const rows = await db
      .select({ name: users.name, email: users.email, lastSignIn: max(sessions.createdAt) })
      .from(classroomUsers)
      .innerJoin(users, eq(users.id, classroomUsers.userId))
      .leftJoin(sessions, eq(sessions.userId, users.id))
      .where(and(eq(classroomUsers.classroomId, classroomId)))
      .groupBy(users.id, users.name, users.email)
      .orderBy(asc(users.email));
    const sheet = createXlsxWriter({
      sheetName: 'Usuarios',
      columns: [
        { header: 'Nombre', width: 30 },
        { header: 'Correo', width: 34 },
        { header: `Último inicio de sesión (${deps.timeZone})`, width: 24, type: 'dateTime' },
      ],
      timeZone: deps.timeZone,
      modified: new Date(),
    });
    const write = async () => {
      for (let start = 0; start < rows.length && !sheet.closed; start += exportRowsPerWrite) {
        await sheet.addRows(
          rows
            .slice(start, start + exportRowsPerWrite)
            .map((row) => [row.name, row.email, row.lastSignIn ? new Date(row.lastSignIn) : '-']),
        );
      }
      sheet.end();
    };
    write().catch((error: unknown) => sheet.fail(error as Error));
    const safeTitle =
      stripAccents(title)
        .replace(/[^A-Za-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')
        .slice(0, 60) || 'aula';
    return { fileName: `Usuarios-${safeTitle}.xlsx`, stream: sheet.stream };
  }

  return {
    candidatePage,
    memberIds,
    preview,
    managedPreview,
    addUsers,
    changeUsers,
    applyChanges,
    lockAudience,
    assertAllowed,
    assertAccounts,
    exportXlsx,
  };
}

export type ClassroomMembersService = ReturnType<typeof createClassroomMembersService>;
