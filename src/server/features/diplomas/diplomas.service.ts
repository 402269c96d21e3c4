import { and, eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { diplomaUsers, diplomas } from '#server/db/schema/index.ts';
import { hasPremiumAccess } from '#shared/accounts/accounts.rules.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';

export function createDiplomasService(deps: { db: Db }) {
  const { db } = deps;

  /** Course material: Admins, the diploma's administrator, and enrolled Premium members. */
  async function canAccessContent(user: UserRow, diplomaId: string): Promise<boolean> {
    if (user.type === 'Admin') return true;
    const [diploma] = await db.select({ adminUserId: diplomas.adminUserId }).from(diplomas).where(eq(diplomas.id, diplomaId));
    if (!diploma) return false;
    if (diploma.adminUserId === user.id) return true;
    if (!hasPremiumAccess(user)) return false;
    const enrolled = await db
      .select({ userId: diplomaUsers.userId })
      .from(diplomaUsers)
      .where(and(eq(diplomaUsers.diplomaId, diplomaId), eq(diplomaUsers.userId, user.id)));
    return enrolled.length > 0;
  }

  return { canAccessContent };
}

export type DiplomasService = ReturnType<typeof createDiplomasService>;
