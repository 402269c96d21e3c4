import { PassThrough, type Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { and, asc, ne, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { reportExports, users } from '#server/db/schema/index.ts';
import { nextPaymentDate } from '#shared/membership/membership.rules.ts';

const batchSize = 2000;

export const reportColumns = [
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

type ReportUser = typeof users.$inferSelect;

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

export function reportRow(user: ReportUser, now: Date) {
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

  async function write() {
    let after: { rank: number; type: string; userNumber: number } | null = null;
    let rowCount = 0;
    for (;;) {
      const batch: (ReportUser & { rank: number })[] = await db
        .select({ user: users, rank: rankSql })
        .from(users)
        .where(
          and(
            ne(users.type, 'Admin'),
            after
              ? sql`(${rankSql}, ${users.type}, ${users.userNumber}) > (${after.rank}, ${after.type}::account_type, ${after.userNumber})`
              : undefined,
          ),
        )
        .orderBy(asc(rankSql), asc(users.type), asc(users.userNumber))
        .limit(batchSize)
        .then((rows) => rows.map((row) => ({ ...row.user, rank: Number(row.rank) })));
      for (const user of batch) {
        const row = sheet.addRow(reportRow(user, now));
        row.eachCell((cell) => {
          if (typeof cell.value === 'string' && isFormulaLike(cell.value)) cell.numFmt = '@';
        });
        row.commit();
      }
      rowCount += batch.length;
      const last = batch.at(-1);
      if (!last || batch.length < batchSize) break;
      after = { rank: last.rank, type: last.type, userNumber: last.userNumber };
    }
    sheet.commit();
    await workbook.commit();
    await db.insert(reportExports).values({ requestedBy, rowCount });
  }

  write().catch((error: unknown) => output.destroy(error as Error));
  return { fileName: `Usuarios-${dateText(now)}.xlsx`, stream: output };
}

