import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { viewingTokens } from '#server/db/schema/index.ts';

const channel = 'viewing_tokens';

/** The single-device rule: one viewing token per user; issuing a new one tells every other device. */
export function createViewingService(deps: { database: Database }) {
  const { db } = deps.database;

  /** Gives the account's one viewing token to this session (device); 'Mis dispositivos' shows which one holds it. */
  async function issue(userId: string, sessionId: string | null = null): Promise<string> {
    const token = randomBytes(24).toString('base64url');
    await db
      .insert(viewingTokens)
      .values({ userId, token, sessionId })
      .onConflictDoUpdate({ target: viewingTokens.userId, set: { token, sessionId, updatedAt: new Date() } });
    await deps.database.notify(channel, userId);
    return token;
  }

  async function current(userId: string): Promise<string | null> {
    const [row] = await db.select({ token: viewingTokens.token }).from(viewingTokens).where(eq(viewingTokens.userId, userId));
    return row?.token ?? null;
  }

  /** Calls `onReplaced` once when this user's token is no longer `token` (checked at once, then live). */
  async function watch(userId: string, token: string, onReplaced: () => void): Promise<() => void> {
    let fired = false;
    const check = async () => {
      if (fired) return;
      if ((await current(userId)) !== token) {
        fired = true;
        onReplaced();
      }
    };
    const stop = await deps.database.listen(channel, (payload) => {
      if (payload === userId) void check();
    });
    await check();
    return stop;
  }

  return { issue, current, watch };
}

export type ViewingService = ReturnType<typeof createViewingService>;
