import { PassThrough, type Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createDeflateRaw, type DeflateRaw } from 'node:zlib';
import { Zip, ZipPassThrough } from 'fflate';
import { and, asc, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { drainedOrClosed } from '#server/services/drained.ts';
import { reportExports, users } from '#server/db/schema/index.ts';
import { nextPaymentDate } from '#shared/membership/membership.rules.ts';

// batches read by keyset on users_report_order_idx; a turn of the event loop every 50 rows (well under a millisecond
// of sheet writing), so other requests never wait long behind the report
const batchSize = 500;
const rowsPerTurn = 50;
const maxBufferedBytes = 4 * 1024 * 1024;

const reportColumns = [
  { header: 'Nombre', key: 'name', width: 30 },
  { header: 'Correo', key: 'email', width: 34 },
  { header: 'Teléfono', key: 'phone', width: 18 },
  { header: 'Membresía', key: 'membership', width: 18 },
  { header: 'Ciudad', key: 'city', width: 18 },
  { header: 'País', key: 'country', width: 18 },
  { header: 'Fecha de registro', key: 'registered', width: 18 },
  { header: 'Universidad de origen', key: 'university', width: 30 },
  { header: 'Fecha de renovación', key: 'renewal', width: 20 },
] as const;

// spec 2 §9: annual Premium first, then Premium, then the other types
const rankSql = sql<number>`case when ${users.type} = 'Premium' and ${users.annualPlan} then 0 when ${users.type} = 'Premium' then 1 else 2 end`;

// only what the sheet shows: on the embedded database every column of every row costs main-thread time
const reportFields = {
  name: users.name,
  email: users.email,
  phoneNumber: users.phoneNumber,
  type: users.type,
  annualPlan: users.annualPlan,
  city: users.city,
  country: users.country,
  createdAt: users.createdAt,
  homeUniversity: users.homeUniversity,
  paymentDay: users.paymentDay,
  userNumber: users.userNumber,
};

type ReportUser = Pick<typeof users.$inferSelect, keyof typeof reportFields>;

const dateText = (date: Date) => date.toISOString().slice(0, 10);
const orDash = (text: string | null | undefined) => (text && text.trim() ? text : '-');

function membershipText(user: ReportUser): string {
  if (user.type === 'Premium') return user.annualPlan ? 'Premium anual' : 'Premium mensual';
  return user.type;
}

/** A spreadsheet app must read =, +, - or @ at the start as text, never as a formula. */
export function isFormulaLike(text: string): boolean {
  return /^[=+\-@\t\r]/.test(text);
}

function reportRow(user: ReportUser, now: Date) {
  return {
    name: orDash(user.name),
    email: orDash(user.email),
    phone: orDash(user.phoneNumber),
    membership: membershipText(user),
    city: orDash(user.city),
    country: orDash(user.country),
    registered: dateText(user.createdAt),
    university: orDash(user.homeUniversity),
    renewal: user.paymentDay ? dateText(nextPaymentDate(user.paymentDay, user.annualPlan, now)) : 'N/A',
  };
}

const xmlHeader = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const mainNs = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const relNs = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

/** The fixed parts of a one-sheet workbook: content types, relationships, the workbook and its two cell styles. */
const packageParts: [name: string, xml: string][] = [
  [
    '[Content_Types].xml',
    `${xmlHeader}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
  ],
  [
    '_rels/.rels',
    `${xmlHeader}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${relNs}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  ],
  [
    'xl/workbook.xml',
    `${xmlHeader}<workbook xmlns="${mainNs}" xmlns:r="${relNs}"><sheets><sheet name="Usuarios" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  ],
  [
    'xl/_rels/workbook.xml.rels',
    `${xmlHeader}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${relNs}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${relNs}/styles" Target="styles.xml"/></Relationships>`,
  ],
  [
    // style 1 is the Text number format (49, '@'): a cell starting with = + - @ is shown as written, never as a formula
    'xl/styles.xml',
    `${xmlHeader}<styleSheet xmlns="${mainNs}"><fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
  ],
];

const sheetStart = `${xmlHeader}<worksheet xmlns="${mainNs}"><cols>${reportColumns
  .map((column, index) => `<col min="${index + 1}" max="${index + 1}" width="${column.width}" customWidth="1"/>`)
  .join('')}</cols><sheetData>`;
const sheetEnd = '</sheetData></worksheet>';

// characters XML 1.0 cannot hold at all (C0 controls other than tab and line breaks, lone surrogates, U+FFFE/FFFF)
const notXml =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const escapeXml = (text: string) => text.replace(notXml, '').replace(/[&<>]/g, (char) => escapes[char]!);

/**
 * A zip entry compressed by Node's zlib (on the thread pool) rather than fflate's JavaScript deflate, which took
 * about 2 s of this thread for 100,000 rows. fflate's pass-through counts the CRC and size of what is pushed; this
 * only swaps the bytes it hands on for their deflated form (method 8).
 */
class NativeDeflateEntry extends ZipPassThrough {
  readonly deflater: DeflateRaw = createDeflateRaw({ level: 6 });
  constructor(filename: string) {
    super(filename);
    this.compression = 8;
    this.deflater.on('data', (chunk: Buffer<ArrayBuffer>) => this.ondata(null, chunk, false));
    this.deflater.on('end', () => this.ondata(null, new Uint8Array(0), true));
    // the zip hands the error to its callback, which ends the response with it
    this.deflater.on('error', (error) => this.ondata(Object.assign(error, { code: 0 }), new Uint8Array(0), true));
  }
  protected override process(chunk: Uint8Array, final: boolean): void {
    this.deflater.write(chunk);
    if (final) this.deflater.end();
  }
}

const columnLetters = reportColumns.map((_, index) => String.fromCharCode(65 + index));

/** One <row> of text cells (inline strings); formula-like text gets the Text format. */
function rowXml(rowNumber: number, values: readonly string[]): string {
  let xml = `<row r="${rowNumber}">`;
  values.forEach((value, index) => {
    const style = isFormulaLike(value) ? ' s="1"' : '';
    const space = value !== value.trim() ? ' xml:space="preserve"' : '';
    xml += `<c r="${columnLetters[index]}${rowNumber}"${style} t="inlineStr"><is><t${space}>${escapeXml(value)}</t></is></c>`;
  });
  return `${xml}</row>`;
}

/** Where a batch starts: after this member in the sheet's order. */
type ReportPosition = { rank: number; type: string; userNumber: number };

/** One batch of the report: the members after `after` in the sheet's order, read by keyset on users_report_order_idx. */
export function reportBatchQuery(db: Db, after: ReportPosition | null) {
  return db
    .select({ ...reportFields, rank: rankSql })
    .from(users)
    .where(
      and(
        ne(users.type, 'Admin'),
        // deleted members never reappear
        isNull(users.anonymizedAt),
        after
          ? sql`(${rankSql}, ${users.type}, ${users.userNumber}) > (${after.rank}, ${after.type}::account_type, ${after.userNumber})`
          : undefined,
      ),
    )
    .orderBy(asc(rankSql), asc(users.type), asc(users.userNumber))
    .limit(batchSize);
}

/**
 * Streams Usuarios-{date}.xlsx in batches (keyset on rank, type and registration number), so 100,000 users never sit
 * in memory at once. The sheet's XML is written row by row into a streaming zip (fflate's container, zlib's deflate): a spreadsheet library
 * would keep a model of every row and cell, which at 100,000 users cost about 200 MB (issue #13).
 */
export function streamUsersReport(deps: { db: Db; requestedBy: string; now?: Date }): {
  fileName: string;
  stream: Readable;
} {
  const { db, requestedBy } = deps;
  const now = deps.now ?? new Date();
  const output = new PassThrough();
  const encoder = new TextEncoder();
  const zip = new Zip((error, chunk, final) => {
    if (error) return void output.destroy(error);
    if (output.destroyed) return;
    output.write(chunk);
    if (final) output.end();
  });
  const mtime = now;
  // the small fixed parts go first and whole; the zip then streams the sheet's entry as it is written
  for (const [name, xml] of packageParts) {
    const part = new ZipPassThrough(name);
    part.mtime = mtime;
    zip.add(part);
    part.push(encoder.encode(xml), true);
  }
  const sheet = new NativeDeflateEntry('xl/worksheets/sheet1.xml');
  sheet.mtime = mtime;
  zip.add(sheet);

  /** Waits while the client is slower than the report, so unsent bytes never pile up in memory. */
  async function drained(): Promise<void> {
    // rows not yet compressed wait too: the deflater runs behind this thread
    if (sheet.deflater.writableLength >= maxBufferedBytes && !output.destroyed) {
      await new Promise((resolve) => sheet.deflater.once('drain', resolve));
    }
    if (output.writableLength < maxBufferedBytes || output.destroyed) return;
    await drainedOrClosed(output);
  }

  type Batch = (ReportUser & { rank: number })[];
  const fetchBatch = (after: ReportPosition | null): Promise<Batch> =>
    reportBatchQuery(db, after).then((rows) => rows.map((row) => ({ ...row, rank: Number(row.rank) })));

  async function write() {
    let rowCount = 0;
    sheet.push(
      encoder.encode(
        sheetStart +
          rowXml(
            1,
            reportColumns.map((column) => column.header),
          ),
      ),
    );
    let next: Promise<Batch> | null = fetchBatch(null);
    while (next) {
      const batch: Batch = await next;
      const last = batch.at(-1);
      // the database (its own thread on PGlite, its own process on PostgreSQL) reads the next batch while this
      // thread writes the current one
      next =
        last && batch.length === batchSize
          ? fetchBatch({ rank: last.rank, type: last.type, userNumber: last.userNumber })
          : null;
      // keeps next's failure from being unhandled while this batch is written; it still throws at its await
      next?.catch(() => {});
      for (let start = 0; start < batch.length; start += rowsPerTurn) {
        let xml = '';
        for (const user of batch.slice(start, start + rowsPerTurn)) {
          const row = reportRow(user, now);
          xml += rowXml(
            rowCount + 2,
            reportColumns.map((column) => row[column.key]),
          );
          rowCount += 1;
        }
        if (output.destroyed) return;
        sheet.push(encoder.encode(xml));
        await drained();
        await nextTurn();
      }
    }
    sheet.push(encoder.encode(sheetEnd), true);
    zip.end();
    await db.insert(reportExports).values({ requestedBy, rowCount });
  }

  write().catch((error: unknown) => output.destroy(error as Error));
  return { fileName: `Usuarios-${dateText(now)}.xlsx`, stream: output };
}
