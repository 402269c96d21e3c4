import { asc, eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { consentEvents } from '#server/db/schema/index.ts';
import { consentKinds, type ConsentKind, type ConsentSource } from '#shared/privacy/privacy.rules.ts';

type Preferences = Record<ConsentKind, boolean>;

/** The consent log: when and how each mail preference was given or withdrawn. */
export function createConsentsService(deps: { db: Db }) {
  const { db } = deps;

  /** Records every preference whose value changed (all of them when `before` is null, as at sign-up). */
  async function record(
    userId: string,
    before: Preferences | null,
    after: Preferences,
    source: ConsentSource,
    tx?: Db,
  ): Promise<void> {
    const rows = consentKinds
      .filter((kind) => before === null || before[kind] !== after[kind])
      .map((kind) => ({ userId, kind, given: after[kind], source }));
    if (rows.length > 0) await (tx ?? db).insert(consentEvents).values(rows);
  }

  async function listForUser(userId: string, tx?: Db) {
    return (tx ?? db)
      .select()
      .from(consentEvents)
      .where(eq(consentEvents.userId, userId))
      .orderBy(asc(consentEvents.at));
  }

  return { record, listForUser };
}

export type ConsentsService = ReturnType<typeof createConsentsService>;
