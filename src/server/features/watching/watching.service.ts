import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { favoriteProcedures, watchPositions } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import type { ProcedureCard } from '#shared/catalog/catalog.schemas.ts';
import { isNearEnd } from '#shared/watching/watching.rules.ts';
import type { ContinueWatching, ProcedureProgress, SavePosition } from '#shared/watching/watching.schemas.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import type { CatalogService } from '#server/features/catalog/catalog.service.ts';
import type { ViewingService } from '#server/features/viewing/viewing.service.ts';
import type { WatchedTimeService } from './watched-time.service.ts';

const continueWatchingLimit = 12;

/** Resume positions, 'Seguir viendo' and favourites of signed-in members. */
export function createWatchingService(deps: {
  db: Db;
  catalog: CatalogService;
  viewing: ViewingService;
  watchedTime: WatchedTimeService;
}) {
  const { db, catalog, viewing, watchedTime } = deps;

  /**
   * Stores where a member is in a full video. Only a member the detail page gives the full video may save
   * (a demo is never progress), and only from the device holding the account's viewing token. 'Visto' comes
   * from the watched time the saves add up to, never from the position alone.
   */
  async function savePosition(user: UserRow, procedureId: string, input: SavePosition): Promise<void> {
    const access = await catalog.canWatchFull(user, procedureId);
    if (access === null) throw new AppError('NOT_FOUND');
    if (!access) throw new AppError('FORBIDDEN');
    if ((await viewing.current(user.id)) !== input.viewingToken) throw new AppError('VIEWING_TOKEN_REPLACED');
    const procedure = await catalog.find(procedureId);
    const watched = await watchedTime.recordSave(
      user.id,
      { procedureId },
      {
        videoKey: procedure?.fullVideo ?? null,
        positionSeconds: input.positionSeconds,
        durationSeconds: input.durationSeconds,
        viewingToken: input.viewingToken,
        startsSpan: input.startsSpan ?? false,
      },
    );
    const positionSeconds = Math.min(input.positionSeconds, input.durationSeconds);
    const now = new Date();
    // one statement: two saves at once leave one row, 'watched' is never undone and updated_at never goes back
    await db
      .insert(watchPositions)
      .values({
        userId: user.id,
        procedureId,
        positionSeconds,
        durationSeconds: input.durationSeconds,
        watchedAt: watched.isWatched ? now : null,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [watchPositions.userId, watchPositions.procedureId],
        set: {
          positionSeconds: sql`excluded.position_seconds`,
          durationSeconds: sql`excluded.duration_seconds`,
          watchedAt: sql`coalesce(${watchPositions.watchedAt}, excluded.watched_at)`,
          updatedAt: sql`greatest(${watchPositions.updatedAt}, excluded.updated_at)`,
        },
      });
  }

  /** The member's place in one procedure and whether it is a favourite. */
  async function progressOf(user: UserRow, procedureId: string): Promise<ProcedureProgress> {
    const access = await catalog.canWatchFull(user, procedureId);
    if (access === null) throw new AppError('NOT_FOUND');
    const [[position], [favorite]] = await Promise.all([
      db
        .select()
        .from(watchPositions)
        .where(and(eq(watchPositions.userId, user.id), eq(watchPositions.procedureId, procedureId))),
      db
        .select({ one: sql`1` })
        .from(favoriteProcedures)
        .where(and(eq(favoriteProcedures.userId, user.id), eq(favoriteProcedures.procedureId, procedureId))),
    ]);
    // a member who lost the full video (Premium ended) is not offered a place in it
    const shown = access ? position : undefined;
    return {
      positionSeconds: shown?.positionSeconds ?? null,
      durationSeconds: shown?.durationSeconds ?? null,
      isWatched: Boolean(position?.watchedAt),
      isFavorite: Boolean(favorite),
    };
  }

  /** 'Seguir viendo': started and not finished, newest first, only what the member may still watch in full. */
  async function continueWatching(user: UserRow): Promise<ContinueWatching> {
    const rows = await db
      .select()
      .from(watchPositions)
      .where(
        and(
          eq(watchPositions.userId, user.id),
          isNull(watchPositions.watchedAt),
          gt(watchPositions.positionSeconds, 0),
        ),
      )
      .orderBy(desc(watchPositions.updatedAt))
      .limit(continueWatchingLimit * 2);
    const cards = new Map(
      (
        await catalog.cardsByIds(
          user,
          rows.map((row) => row.procedureId),
        )
      ).map((card) => [card.id, card]),
    );
    return rows
      .flatMap((row) => {
        const procedure = cards.get(row.procedureId);
        // a place near the end has nothing left to resume, watched or not
        if (!procedure || procedure.isLocked || isNearEnd(row.positionSeconds, row.durationSeconds)) return [];
        return [
          {
            procedure,
            positionSeconds: row.positionSeconds,
            durationSeconds: row.durationSeconds,
            updatedAt: row.updatedAt.toISOString(),
          },
        ];
      })
      .slice(0, continueWatchingLimit);
  }

  /** Marks a favourite; marking it again changes nothing. Any member may, Premium procedures included. */
  async function addFavorite(user: UserRow, procedureId: string): Promise<void> {
    if (!(await catalog.find(procedureId))) throw new AppError('NOT_FOUND');
    await db.insert(favoriteProcedures).values({ userId: user.id, procedureId }).onConflictDoNothing();
  }

  async function removeFavorite(user: UserRow, procedureId: string): Promise<void> {
    if (!(await catalog.find(procedureId))) throw new AppError('NOT_FOUND');
    await db
      .delete(favoriteProcedures)
      .where(and(eq(favoriteProcedures.userId, user.id), eq(favoriteProcedures.procedureId, procedureId)));
  }

  /** '/mis-favoritos': newest first, each card locked or not as the catalogue shows it. */
  async function favorites(user: UserRow): Promise<ProcedureCard[]> {
    const rows = await db
      .select({ procedureId: favoriteProcedures.procedureId })
      .from(favoriteProcedures)
      .where(eq(favoriteProcedures.userId, user.id))
      .orderBy(desc(favoriteProcedures.createdAt), desc(favoriteProcedures.procedureId));
    return catalog.cardsByIds(
      user,
      rows.map((row) => row.procedureId),
    );
  }

  return { savePosition, progressOf, continueWatching, addFavorite, removeFavorite, favorites };
}

export type WatchingService = ReturnType<typeof createWatchingService>;
