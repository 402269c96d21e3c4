import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { boundedCache } from '#server/services/bounded-cache.ts';
import type { Database } from '#server/db/client.ts';
import { anyChange } from '#server/db/channels.ts';
import { viewingTokens } from '#server/db/schema/index.ts';

/** Carries the user id of every newly issued viewing token, to every instance. */
export const viewingTokensChannel = 'viewing_tokens';
const channel = viewingTokensChannel;

/**
 * How long a remembered token may be trusted if a notification were lost (the LISTEN connection down): a
 * takeover lands at once through NOTIFY, and at the latest after this.
 */
const rememberedTokenMs = 5_000;

/** The single-device rule: one viewing token per user; issuing a new one tells every other device. */
export function createViewingService(deps: { database: Database }) {
  const { db } = deps.database;
  // the tokens media range requests are checked against, remembered only while LISTEN delivers every change
  const remembered = boundedCache<string, { token: string | null }>({ entries: 50_000, ttl: rememberedTokenMs });
  let listening = false;
  // bumped by every change: a lookup that overlapped one might have read the old token, so it is not remembered
  let changes = 0;
  const forget = (userId: string) => {
    changes++;
    if (userId === anyChange) remembered.clear();
    else remembered.delete(userId);
  };
  deps.database.listen(channel, forget).then(
    () => (listening = true),
    () => {},
  );

  /** Gives the account's one viewing token to this session (device); 'Mis dispositivos' shows which one holds it. */
  async function issue(userId: string, sessionId: string | null = null): Promise<string> {
    const token = randomBytes(24).toString('base64url');
    await db
      .insert(viewingTokens)
      .values({ userId, token, sessionId })
      .onConflictDoUpdate({ target: viewingTokens.userId, set: { token, sessionId, updatedAt: new Date() } });
    // this instance knows before the response leaves; the others when the notification reaches them
    forget(userId);
    await deps.database.notify(channel, userId);
    return token;
  }

  async function current(userId: string): Promise<string | null> {
    const [row] = await db
      .select({ token: viewingTokens.token })
      .from(viewingTokens)
      .where(eq(viewingTokens.userId, userId));
    return row?.token ?? null;
  }

  /**
   * Does `token` still hold the account's viewing token? The answer is remembered per account until NOTIFY
   * tells of a new token (or rememberedTokenMs pass), so a video's range requests cost no query after the first.
   */
  async function isCurrent(userId: string, token: string): Promise<boolean> {
    const known = rememberedCurrent(userId, token);
    if (known !== undefined) return known;
    const before = changes;
    const now = await current(userId);
    if (listening && changes === before) remembered.set(userId, { token: now });
    return now === token;
  }

  /** isCurrent's answer when it is remembered, at once and without a query; undefined when it is not. */
  function rememberedCurrent(userId: string, token: string): boolean | undefined {
    const known = listening ? remembered.get(userId) : undefined;
    return known ? known.token === token : undefined;
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
      if (payload === userId || payload === anyChange) void check();
    });
    await check();
    return stop;
  }

  return { issue, current, isCurrent, rememberedCurrent, watch };
}

export type ViewingService = ReturnType<typeof createViewingService>;
