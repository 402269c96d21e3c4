import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import type { Log } from '#server/services/log.ts';

/** A table is taken again once its file has grown by a tenth since (rows added, or dead rows left by updates and deletes). */
const growthToMaintain = 1.1;

export const maintenanceJobKind = 'database.maintenance';

type TableSize = { name: string; rowsThen: number; pagesThen: number; pagesNow: number };

/**
 * What PostgreSQL's autovacuum does, for the embedded database, which has none (PGlite runs PostgreSQL as a single
 * process): VACUUM (ANALYZE) every table never analyzed, or whose file grew by a tenth since it last was.
 * - Without statistics the planner guessed a few dozen rows among 100,000 users and sorted the whole table for each
 *   500-row batch of the users report: 8-10 s instead of 2 s.
 * - Without VACUUM the space of dead rows is never reused.
 * One table at a time: a request waits at most for one table's turn (about 0.4 s for 100,000 users, once).
 * Returns the tables it took.
 */
export async function maintainTables(db: Db): Promise<string[]> {
  const result = await db.execute<TableSize>(sql`
    select c.relname as "name", c.reltuples::float8 as "rowsThen", c.relpages as "pagesThen",
      (pg_relation_size(c.oid) / current_setting('block_size')::int)::int as "pagesNow"
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and n.nspname = current_schema()
    order by c.relname`);
  const tables = (Array.isArray(result) ? result : (result as { rows: TableSize[] }).rows) as TableSize[];
  const due = tables.filter(
    // reltuples is -1 until a table's first VACUUM or ANALYZE
    (table) =>
      Number(table.rowsThen) < 0 || Number(table.pagesNow) > Math.floor(Number(table.pagesThen) * growthToMaintain),
  );
  for (const table of due) await db.execute(sql`vacuum (analyze) ${sql.identifier(table.name)}`);
  return due.map((table) => table.name);
}

/** The recurring job: maintainTables, with a log line of what it took and how long. */
export async function maintainDatabase(db: Db, log: Pick<Log, 'info'>): Promise<void> {
  const started = performance.now();
  const tables = await maintainTables(db);
  if (tables.length > 0)
    log.info({ tables, ms: Math.round(performance.now() - started) }, 'database maintenance: vacuum and analyze');
}
