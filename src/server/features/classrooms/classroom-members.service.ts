import { stripAccents } from '#shared/text.ts';
import { and, asc, eq, inArray, max } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { classroomUsers, sessions, users } from '#server/db/schema/index.ts';
import { Readable } from 'node:stream';
import { AppError } from '#shared/errors.ts';
import { messages } from '#shared/messages.ts';
import type { OrganizationType } from '#shared/organizations/organizations.rules.ts';
import { addressOfCells, importLinesFromText, type ImportLine } from '#shared/classrooms/classrooms.rules.ts';
import type {
  ClassroomMember,
  ImportInput,
  ImportLineResult,
  ImportPreview,
  ManagedImportPreview,
} from '#shared/classrooms/classrooms.schemas.ts';
import { createXlsxWriter } from '#server/services/xlsx.ts';

/** Who may be on an aula's list: anyone with an account, only the organization's members for a Universidad. */
export type Audience = { organizationType: OrganizationType; organizationId: string };

const insertBatch = 5000;
const maxImportLines = 20_000;
const exportRowsPerWrite = 200;

const member = (row: { id: string; name: string; email: string }): ClassroomMember => ({
  id: row.id,
  name: row.name,
  email: row.email,
});

/** exceljs loads with the first aula spreadsheet read or written, not at every start. */
const loadExcel = async () => (await import('exceljs')).default;

/** A shared string the sheet refers to, looked up once the strings are read (they come after the sheets). */
type SharedStringRef = { sharedString: number };

const isSharedStringRef = (value: unknown): value is SharedStringRef =>
  typeof value === 'object' && value !== null && typeof (value as SharedStringRef).sharedString === 'number';

/** A cell's value as text, whatever exceljs made of it (rich text, hyperlink, formula result, number). */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  const object = value as { richText?: { text?: string }[]; text?: unknown; result?: unknown };
  if (Array.isArray(object.richText)) return object.richText.map((run) => run.text ?? '').join('');
  if (object.text !== undefined) return cellText(object.text);
  if (object.result !== undefined) return cellText(object.result);
  return '';
}

/**
 * Lines of an xlsx file's first sheet: one a row, the first cell holding an address. Read as a stream that stops
 * at the line limit, so a sheet of a million rows is refused as soon as its 20,001st row is seen; only the shared
 * strings those rows use are kept.
 */
async function importLinesFromXlsx(data: Buffer): Promise<ImportLine[]> {
  const reader = new (await loadExcel()).stream.xlsx.WorkbookReader(Readable.from([data]), {
    worksheets: 'emit',
    sharedStrings: 'emit',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  // with these set, exceljs streams a sheet as it comes instead of copying it to a temporary file to wait for the
  // shared strings, and leaves a shared-string cell as a reference for us to resolve
  Object.assign(reader, {
    sharedStrings: new Proxy([], {
      get: (_target, key) => (typeof key === 'string' && /^\d+$/.test(key) ? { sharedString: Number(key) } : undefined),
    }),
    workbookRels: [],
    // the workbook part comes last in the files exceljs and Excel write
    model: { sheets: [] },
    properties: {},
  });
  const rows: unknown[][] = [];
  const wanted = new Set<number>();
  const strings = new Map<number, string>();
  let sheetRead = false;
  // worksheets come as { eventType, value }, shared strings (in 'emit' mode) as { index, text }
  type ReaderEvent = { eventType?: string; value?: unknown; index?: number; text?: unknown };
  try {
    for await (const event of reader.parse() as unknown as AsyncIterable<ReaderEvent>) {
      if (event.eventType === 'worksheet' && !sheetRead) {
        sheetRead = true;
        for await (const row of event.value as AsyncIterable<{ number: number; values: unknown }>) {
          if (row.number > maxImportLines) throw new AppError('PAYLOAD_TOO_LARGE');
          const values = Array.isArray(row.values) ? row.values.slice(1, 100) : [];
          for (const cell of values) if (isSharedStringRef(cell)) wanted.add(cell.sharedString);
          rows[row.number - 1] = values;
        }
        if (wanted.size === 0) break;
      } else if (typeof event.index === 'number') {
        if (wanted.has(event.index)) strings.set(event.index, cellText(event.text));
        if (sheetRead && strings.size === wanted.size) break;
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('FILE_FORMAT');
  }
  const lines: ImportLine[] = [];
  for (let index = 0; index < rows.length; index += 1) {
    const cells = (rows[index] ?? [])
      .map((cell) => (isSharedStringRef(cell) ? (strings.get(cell.sharedString) ?? '') : cellText(cell)).trim())
      .filter((text) => text !== '');
    lines.push({ line: index + 1, text: cells.join(', ').slice(0, 200), email: addressOfCells(cells) });
  }
  return lines;
}

/**
 * A CSV file's text: UTF-16 with its byte order mark (Excel's 'Texto Unicode'), else UTF-8 with or without one
 * (Excel's 'CSV UTF-8', Google Sheets).
 */
function decodeCsv(data: Buffer): string {
  if (data[0] === 0xff && data[1] === 0xfe)
    return data.subarray(2, data.length - (data.length % 2)).toString('utf16le');
  if (data[0] === 0xfe && data[1] === 0xff) {
    return Buffer.from(data.subarray(2, data.length - (data.length % 2)))
      .swap16()
      .toString('utf16le');
  }
  return data.toString('utf8');
}

/** The lines of pasted text, a CSV file or an xlsx file. */
async function readImportLines(source: ImportInput): Promise<ImportLine[]> {
  let lines: ImportLine[];
  if (source.format === 'text') lines = importLinesFromText(source.text);
  else {
    const data = Buffer.from(source.dataBase64, 'base64');
    if (source.format === 'xlsx') {
      // an xlsx is a zip: anything else is refused before exceljs reads it
      if (data.subarray(0, 2).toString('latin1') !== 'PK') throw new AppError('FILE_FORMAT');
      lines = await importLinesFromXlsx(data);
    } else {
      const text = decodeCsv(data);
      // refused as in pasted text: PostgreSQL cannot compare a NUL byte
      if (text.includes('\u0000')) throw new AppError('VALIDATION', { fields: { dataBase64: messages.nulCharacter } });
      lines = importLinesFromText(text);
    }
  }
  if (lines.length > maxImportLines) throw new AppError('PAYLOAD_TOO_LARGE');
  return lines;
}

const reasons = {
  ok: 'Se agregará al aula',
  already: 'Ya está en el aula',
  unknown: 'No hay ninguna cuenta con este correo',
  outside: 'La cuenta no pertenece a la organización del aula',
  invalid: 'No contiene un correo válido',
  blank: 'Línea vacía',
  // one reason for an unknown address and another organization's account: neither is told apart
  refused: 'No se puede agregar: ninguna cuenta que pueda entrar a esta aula tiene este correo',
} as const;

export function createClassroomMembersService(deps: { db: Db; timeZone: string }) {
  const { db } = deps;

  async function findUsers(ids: string[]) {
    const found: { id: string; name: string; email: string; organizationId: string | null }[] = [];
    const unique = [...new Set(ids)];
    for (let start = 0; start < unique.length; start += insertBatch) {
      found.push(
        ...(await db
          .select({ id: users.id, name: users.name, email: users.email, organizationId: users.organizationId })
          .from(users)
          .where(inArray(users.id, unique.slice(start, start + insertBatch)))),
      );
    }
    return found;
  }

  /** Throws unless every id is an account the audience admits. */
  async function assertAllowed(audience: Audience, ids: string[]): Promise<void> {
    const unique = new Set(ids);
    const found = await findUsers([...unique]);
    const allowed = found.filter(
      (row) => audience.organizationType !== 'Universidad' || row.organizationId === audience.organizationId,
    );
    if (allowed.length !== unique.size) throw new AppError('CLASSROOM_USERS_NOT_ALLOWED');
  }

  /** Accounts that may join an aula of this audience (a Universidad's members), by e-mail. */
  async function candidates(audience: Audience): Promise<ClassroomMember[]> {
    const rows = await db
      .select({ id: users.id, name: users.name, email: users.email })
      .from(users)
      .where(
        audience.organizationType === 'Universidad' ? eq(users.organizationId, audience.organizationId) : undefined,
      )
      .orderBy(asc(users.email));
    return rows.map(member);
  }

  async function listUsers(classroomId: string): Promise<ClassroomMember[]> {
    const rows = await db
      .select({ id: users.id, name: users.name, email: users.email })
      .from(classroomUsers)
      .innerJoin(users, eq(users.id, classroomUsers.userId))
      .where(eq(classroomUsers.classroomId, classroomId))
      .orderBy(asc(users.email));
    return rows.map(member);
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
    const byEmail = new Map<string, { id: string; name: string; email: string; organizationId: string | null }>();
    for (let start = 0; start < emails.length; start += insertBatch) {
      const rows = await db
        .select({ id: users.id, name: users.name, email: users.email, organizationId: users.organizationId })
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
      if (audience.organizationType === 'Universidad' && account.organizationId !== audience.organizationId) {
        return { ...base, user, status: 'outside', reason: reasons.outside };
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
    // an Admin account is never theirs to see, whatever the aula's audience
    const admins = new Set<string>();
    for (let start = 0; start < matched.length; start += insertBatch) {
      const ids = matched.slice(start, start + insertBatch).map((user) => user.id);
      const rows = await db
        .select({ id: users.id })
        .from(users)
        .where(and(inArray(users.id, ids), eq(users.type, 'Admin')));
      for (const row of rows) admins.add(row.id);
    }
    return {
      lines: lines.map(({ line, text, status, reason, user }) => {
        const refused = status === 'unknown' || status === 'outside' || (user !== null && admins.has(user.id));
        return {
          line,
          text,
          status: status === 'ok' && !refused ? 'ok' : 'refused',
          reason: refused ? reasons.refused : reason,
        };
      }),
      matched: matched.filter((user) => !admins.has(user.id)),
    };
  }

  /** Adds accounts in one transaction: every one is checked first, so a refused list adds nobody. */
  async function addUsers(classroomId: string, audience: Audience, userIds: string[]): Promise<number> {
    await assertAllowed(audience, userIds);
    const unique = [...new Set(userIds)];
    return db.transaction(async (tx) => {
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

  /** Replaces an aula's users list (inside the caller's transaction when given). */
  async function replaceUsers(executor: Db, classroomId: string, userIds: string[]): Promise<void> {
    const unique = [...new Set(userIds)];
    await executor.delete(classroomUsers).where(eq(classroomUsers.classroomId, classroomId));
    for (let start = 0; start < unique.length; start += insertBatch) {
      await executor
        .insert(classroomUsers)
        .values(unique.slice(start, start + insertBatch).map((userId) => ({ classroomId, userId })));
    }
  }

  async function setUsers(classroomId: string, audience: Audience, userIds: string[]): Promise<void> {
    await assertAllowed(audience, userIds);
    await db.transaction(async (tx) => replaceUsers(tx as unknown as Db, classroomId, userIds));
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
    candidates,
    listUsers,
    preview,
    managedPreview,
    addUsers,
    setUsers,
    replaceUsers,
    assertAllowed,
    exportXlsx,
  };
}

export type ClassroomMembersService = ReturnType<typeof createClassroomMembersService>;
