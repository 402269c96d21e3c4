import { and, desc, eq, gt, ne } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { sessions, viewingTokens } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import type { DeviceSession } from '#shared/accounts/devices.schemas.ts';
import { describeIpAddress, describeUserAgent } from './device-labels.ts';

/** Notified with a session id whenever 'Mis dispositivos' closes a session. */
const sessionsEndedChannel = 'sessions_ended';

/**
 * Notified by database triggers with an account id when that account may have lost a right (sign-out, plan change,
 * aula or diploma list change), or with `everyAccount` when an aula or diploma itself changed: caches of rights drop it.
 */
export const accessChangedChannel = 'access_changed';
export const everyAccount = '*';

/** 'Mis dispositivos': a member's own signed-in sessions, and ending them (another member's are never reached). */
export function createDevicesService(deps: { database: Database }) {
  const { db } = deps.database;

  /** The member's live sessions, most recently active first, marking this request's and the one holding the video. */
  async function list(userId: string, currentSessionId: string | null): Promise<DeviceSession[]> {
    const [rows, [holder]] = await Promise.all([
      db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, new Date())))
        .orderBy(desc(sessions.lastActiveAt), desc(sessions.createdAt)),
      db.select({ sessionId: viewingTokens.sessionId }).from(viewingTokens).where(eq(viewingTokens.userId, userId)),
    ]);
    return rows.map((row) => ({
      id: row.id,
      ...describeUserAgent(row.userAgent),
      ...describeIpAddress(row.ipAddress),
      signedInAt: row.createdAt.toISOString(),
      lastActiveAt: row.lastActiveAt.toISOString(),
      isCurrent: row.id === currentSessionId,
      isPlaying: holder?.sessionId === row.id,
    }));
  }

  async function announce(sessionIds: string[]): Promise<void> {
    await Promise.all(sessionIds.map((id) => deps.database.notify(sessionsEndedChannel, id)));
  }

  /** Signs one of the member's sessions out (its viewing token goes with it); 404 for any other session. */
  async function close(userId: string, sessionId: string): Promise<void> {
    const ended = await db
      .delete(sessions)
      .where(and(eq(sessions.id, sessionId), eq(sessions.userId, userId)))
      .returning({ id: sessions.id });
    if (ended.length === 0) throw new AppError('NOT_FOUND');
    await announce(ended.map((row) => row.id));
  }

  /** Signs out every session of the member except this one; returns how many were closed. */
  async function closeOthers(userId: string, currentSessionId: string): Promise<number> {
    const ended = await db
      .delete(sessions)
      .where(and(eq(sessions.userId, userId), ne(sessions.id, currentSessionId)))
      .returning({ id: sessions.id });
    await announce(ended.map((row) => row.id));
    return ended.length;
  }

  /** Calls `onEnded` once when this session is closed from 'Mis dispositivos' (any instance); returns the unsubscribe. */
  function watchEnd(sessionId: string, onEnded: () => void): Promise<() => void> {
    let fired = false;
    return deps.database.listen(sessionsEndedChannel, (payload) => {
      if (payload !== sessionId || fired) return;
      fired = true;
      onEnded();
    });
  }

  return { list, close, closeOthers, watchEnd };
}

export type DevicesService = ReturnType<typeof createDevicesService>;
