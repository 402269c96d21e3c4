import type { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { and, asc, isNull, ne, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { createXlsxWriter, type XlsxColumn, type XlsxValue } from '#server/services/xlsx.ts';
import { reportExports, users } from '#server/db/schema/index.ts';
import { nextPaymentDate } from '#shared/membership/membership.rules.ts';

// batches read by keyset on users_report_order_idx; a turn of the event loop every 50 rows (well under a millisecond
// of sheet writing), so other requests never wait long behind the report
const batchSize = 500;
const rowsPerTurn = 50;

/** The spec's columns; dates are real date cells on the site's clock, and the header says which clock. */
function reportColumns(timeZone: string): XlsxColumn[] {
  return [
    { header: 'Nombre', width: 30 },
    { header: 'Correo', width: 34 },
    { header: 'Teléfono', width: 18 },
    { header: 'Membresía', width: 18 },
    { header: 'Ciudad', width: 18 },
    { header: 'País', width: 18 },
    { header: `Fecha de registro (${timeZone})`, width: 18, type: 'date' },
    { header: 'Universidad de origen', width: 30 },
    { header: `Fecha de renovación (${timeZone})`, width: 20, type: 'date' },
  ];
}

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

const orDash = (text: string | null | undefined) => (text && text.trim() ? text : '-');

function membershipText(user: ReportUser): string {
  if (user.type === 'Premium') return user.annualPlan ? 'Premium anual' : 'Premium mensual';
  return user.type;
}

function reportRow(user: ReportUser, now: Date): XlsxValue[] {
  return [
    orDash(user.name),
    orDash(user.email),
    orDash(user.phoneNumber),
    membershipText(user),
    orDash(user.city),
    orDash(user.country),
    user.createdAt,
    orDash(user.homeUniversity),
    user.paymentDay ? nextPaymentDate(user.paymentDay, user.annualPlan, now) : 'N/A',
  ];
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
 * in memory at once.
 */
export function streamUsersReport(deps: { db: Db; requestedBy: string; timeZone: string; now?: Date }): {
  fileName: string;
  stream: Readable;
} {
  const { db, requestedBy } = deps;
  const now = deps.now ?? new Date();
  const sheet = createXlsxWriter({
    sheetName: 'Usuarios',
    columns: reportColumns(deps.timeZone),
    timeZone: deps.timeZone,
    modified: now,
  });

  type Batch = (ReportUser & { rank: number })[];
  const fetchBatch = (after: ReportPosition | null): Promise<Batch> =>
    reportBatchQuery(db, after).then((rows) => rows.map((row) => ({ ...row, rank: Number(row.rank) })));

  async function write() {
    let rowCount = 0;
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
        if (sheet.closed) return;
        const rows = batch.slice(start, start + rowsPerTurn).map((user) => reportRow(user, now));
        await sheet.addRows(rows);
        rowCount += rows.length;
        await nextTurn();
      }
    }
    // recorded before the file's last bytes leave: the download is over when its stream ends, and the record with it
    await db.insert(reportExports).values({ requestedBy, rowCount });
    sheet.end();
  }

  write().catch((error: unknown) => sheet.fail(error as Error));
  // the day on the site's clock, like the dates inside (en-CA writes YYYY-MM-DD)
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: deps.timeZone }).format(now);
  return { fileName: `Usuarios-${day}.xlsx`, stream: sheet.stream };
}
