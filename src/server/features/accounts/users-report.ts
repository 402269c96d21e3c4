import { PassThrough, type Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import { and, asc, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { reportExports, users } from '#server/db/schema/index.ts';
import { nextPaymentDate } from '#shared/membership/membership.rules.ts';

// batches read by keyset on users_report_order_idx; a turn of the event loop every 50 rows (a few milliseconds of
// spreadsheet writing), so other requests never wait long behind the report
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

/** Streams Usuarios-{date}.xlsx in batches (keyset on rank, type and registration number), so 100,000 users never sit in memory at once. */
export function streamUsersReport(deps: { db: Db; requestedBy: string; now?: Date }): { fileName: string; stream: Readable } {
  const { db, requestedBy } = deps;
  const now = deps.now ?? new Date();
  const output = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: output, useStyles: true, useSharedStrings: false });
  const sheet = workbook.addWorksheet('Usuarios');
  sheet.columns = reportColumns.map((column) => ({ ...column }));

  /** Waits while the client is slower than the report, so unsent bytes never pile up in memory. */
  async function drained(): Promise<void> {
    if (output.writableLength < maxBufferedBytes || output.destroyed) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        output.off('drain', done);
        output.off('close', done);
        resolve();
      };
      output.on('drain', done);
      output.on('close', done);
    });
  }

  type After = { rank: number; type: string; userNumber: number };
  type Batch = (ReportUser & { rank: number })[];
  const fetchBatch = (after: After | null): Promise<Batch> =>
    db
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
      .limit(batchSize)
      .then((rows) => rows.map((row) => ({ ...row, rank: Number(row.rank) })));

  async function write() {
    let rowCount = 0;
    let next: Promise<Batch> | null = fetchBatch(null);
    while (next) {
      const batch: Batch = await next;
      const last = batch.at(-1);
      // the database (its own thread on PGlite, its own process on PostgreSQL) reads the next batch while this
      // thread writes the current one
      next = last && batch.length === batchSize ? fetchBatch({ rank: last.rank, type: last.type, userNumber: last.userNumber }) : null;
      // keeps next's failure from being unhandled while this batch is written; it still throws at its await
      next?.catch(() => {});
      for (let start = 0; start < batch.length; start += rowsPerTurn) {
        for (const user of batch.slice(start, start + rowsPerTurn)) {
          const row = sheet.addRow(reportRow(user, now));
          row.eachCell((cell) => {
            if (typeof cell.value === 'string' && isFormulaLike(cell.value)) cell.numFmt = '@';
          });
          row.commit();
        }
        if (output.destroyed) return;
        await drained();
        await nextTurn();
      }
      rowCount += batch.length;
    }
    sheet.commit();
    await workbook.commit();
    await db.insert(reportExports).values({ requestedBy, rowCount });
  }

  write().catch((error: unknown) => output.destroy(error as Error));
  return { fileName: `Usuarios-${dateText(now)}.xlsx`, stream: output };
}

