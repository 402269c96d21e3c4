import { and, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '#server/db/client.ts';
import { favoriteProcedures, watchPositions } from '#server/db/schema/index.ts';

export type CardMarks = { isWatched: boolean; isFavorite: boolean };

/** What the catalogue shows of a member's own watching: 'Visto', the heart and the 'No vistos' filter. */
export function createWatchMarksService(deps: { db: Db }) {
  const { db } = deps;

  /** A condition on `procedureId` keeping the procedures this member has not watched yet. */
  function notWatchedBy(userId: string, procedureId: AnyPgColumn): SQL {
    return sql`not exists (${db
      .select({ one: sql`1` })
      .from(watchPositions)
      .where(
        and(
          eq(watchPositions.userId, userId),
          eq(watchPositions.procedureId, procedureId),
          isNotNull(watchPositions.watchedAt),
        ),
      )})`;
  }

  /** 'Visto' and favourite flags of these procedures for one member (two indexed lookups). */
  async function forCards(userId: string, procedureIds: string[]): Promise<Map<string, CardMarks>> {
    const marks = new Map<string, CardMarks>(procedureIds.map((id) => [id, { isWatched: false, isFavorite: false }]));
    if (procedureIds.length === 0) return marks;
    const [watched, favorites] = await Promise.all([
      db
        .select({ procedureId: watchPositions.procedureId })
        .from(watchPositions)
        .where(
          and(
            eq(watchPositions.userId, userId),
            inArray(watchPositions.procedureId, procedureIds),
            isNotNull(watchPositions.watchedAt),
          ),
        ),
      db
        .select({ procedureId: favoriteProcedures.procedureId })
        .from(favoriteProcedures)
        .where(and(eq(favoriteProcedures.userId, userId), inArray(favoriteProcedures.procedureId, procedureIds))),
    ]);
    for (const row of watched) marks.get(row.procedureId)!.isWatched = true;
    for (const row of favorites) marks.get(row.procedureId)!.isFavorite = true;
    return marks;
  }

  return { notWatchedBy, forCards };
}

export type WatchMarksService = ReturnType<typeof createWatchMarksService>;
