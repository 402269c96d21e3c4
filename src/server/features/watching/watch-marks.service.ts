import { and, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '#server/db/client.ts';
import { favoriteProcedures, watchPositions } from '#server/db/schema/index.ts';

export type CardMarks = { isWatched: boolean; isFavorite: boolean };
/** The name the catalogue keeps a member's marks under with their verified session. */
export const keptMarksName = 'catalogue-marks';
/** One member's watched procedures and favourites. */
export type MemberMarks = { watched: Set<string>; favorites: Set<string> };

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

  /** 'Visto' and favourite flags of these procedures for one member: one query over both primary keys. */
  async function forCards(userId: string, procedureIds: string[]): Promise<Map<string, CardMarks>> {
    const marks = new Map<string, CardMarks>(procedureIds.map((id) => [id, { isWatched: false, isFavorite: false }]));
    if (procedureIds.length === 0) return marks;
    const rows = await db
      .select({ procedureId: watchPositions.procedureId, favorite: sql<boolean>`false` })
      .from(watchPositions)
      .where(
        and(
          eq(watchPositions.userId, userId),
          inArray(watchPositions.procedureId, procedureIds),
          isNotNull(watchPositions.watchedAt),
        ),
      )
      .unionAll(
        db
          .select({ procedureId: favoriteProcedures.procedureId, favorite: sql<boolean>`true` })
          .from(favoriteProcedures)
          .where(and(eq(favoriteProcedures.userId, userId), inArray(favoriteProcedures.procedureId, procedureIds))),
      );
    for (const row of rows) {
      const mark = marks.get(row.procedureId)!;
      if (row.favorite) mark.isFavorite = true;
      else mark.isWatched = true;
    }
    return marks;
  }

  /**
   * Every procedure the member watched and every favourite, in one query over both primary keys' leading column:
   * what a catalogue page's overlay needs, kept with the member's verified session (triggers of migration 0022 drop it).
   */
  async function allOf(userId: string): Promise<MemberMarks> {
    const rows = await db
      .select({ procedureId: watchPositions.procedureId, favorite: sql<boolean>`false` })
      .from(watchPositions)
      .where(and(eq(watchPositions.userId, userId), isNotNull(watchPositions.watchedAt)))
      .unionAll(
        db
          .select({ procedureId: favoriteProcedures.procedureId, favorite: sql<boolean>`true` })
          .from(favoriteProcedures)
          .where(eq(favoriteProcedures.userId, userId)),
      );
    const marks: MemberMarks = { watched: new Set(), favorites: new Set() };
    for (const row of rows) (row.favorite ? marks.favorites : marks.watched).add(row.procedureId);
    return marks;
  }

  return { notWatchedBy, forCards, allOf };
}

export type WatchMarksService = ReturnType<typeof createWatchMarksService>;
