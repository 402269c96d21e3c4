import { and, asc, eq, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '#server/db/client.ts';
import { users } from '#server/db/schema/index.ts';
import { containsPattern, foldSql } from '#server/db/search-sql.ts';
import { foldForSearch } from '#shared/text.ts';
import { progressFilters, type ProgressFilter, type ProgressTotals } from '#shared/progress/progress.schemas.ts';

/** Members whose name or e-mail contains the search, without regard to case or accents (none given: everyone). */
function memberSearch(search: string | undefined): SQL | undefined {
  if (!search) return undefined;
  const pattern = containsPattern(foldForSearch(search));
  return or(sql`${foldSql(users.name)} like ${pattern}`, sql`${foldSql(users.email)} like ${pattern}`);
}

/** Members listed by name, then e-mail; the id keeps pages apart when both repeat. */
export const memberOrder = [asc(users.name), asc(users.email), asc(users.id)] as const;

/**
 * The ids of one page of a membership's members (an aula's, a diploma's) in list order, search applied: read
 * before their figures, so only the page's figures are read.
 */
export async function memberIdsPage(
  db: Db,
  membership: { table: PgTable; userId: PgColumn; of: SQL },
  search: string | undefined,
  page: { offset: number; limit: number },
): Promise<string[]> {
  const rows = await db
    .select({ id: users.id })
    .from(membership.table)
    .innerJoin(users, eq(users.id, membership.userId))
    .where(and(membership.of, memberSearch(search)))
    .orderBy(...memberOrder)
    .limit(page.limit)
    .offset(page.offset);
  return rows.map((row) => row.id);
}

/** The filter on a member's computed status, with the search. */
export function memberWhere(status: SQL<ProgressFilter>, query: { filter?: ProgressFilter; search?: string }) {
  return and(query.filter ? sql`${status} = ${query.filter}` : undefined, memberSearch(query.search));
}

/** Members per status from `select status, count(*) … group by status` rows. */
export function totalsOf(rows: { status: string; total: number | string }[]): ProgressTotals {
  const totals: ProgressTotals = { members: 0, notStarted: 0, inProgress: 0, finished: 0 };
  for (const row of rows) {
    const status = progressFilters.find((candidate) => candidate === row.status);
    if (!status) continue;
    totals[status] += Number(row.total);
    totals.members += Number(row.total);
  }
  return totals;
}

/** An SQL epoch (seconds, numeric or text from the driver) as a Date. */
export function dateOfEpoch(value: number | string | null | undefined): Date | null {
  return value === null || value === undefined ? null : new Date(Number(value) * 1000);
}

/** Rows written to a spreadsheet per database round trip, so an export holds one batch at a time. */
export const exportBatch = 1000;
