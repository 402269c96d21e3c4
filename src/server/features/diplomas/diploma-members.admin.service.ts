import { and, asc, eq, inArray, isNotNull, or } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { diplomaUsers, diplomas, users } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { messages } from '#shared/messages.ts';
import { enrollableTypes, type DiplomaUserRow } from '#shared/diplomas/diplomas.admin.schemas.ts';

type MustFind = (id: string) => Promise<typeof diplomas.$inferSelect>;
/** Who is in a diploma ('Administrar Usuarios'). */
export function createDiplomaMembersAdmin(deps: { db: Db; mustFind: MustFind }) {
  const { db, mustFind } = deps;

  /** Premium and Admin accounts with a mark on those in the diploma (and anyone else still in it). */
  async function listUsers(id: string): Promise<DiplomaUserRow[]> {
    await mustFind(id);
    const rows = await db
      .select({ id: users.id, name: users.name, email: users.email, type: users.type, beganAt: diplomaUsers.beganAt })
      .from(users)
      .leftJoin(diplomaUsers, and(eq(diplomaUsers.userId, users.id), eq(diplomaUsers.diplomaId, id)))
      .where(or(inArray(users.type, [...enrollableTypes]), isNotNull(diplomaUsers.userId)))
      .orderBy(asc(users.email));
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      email: row.email,
      type: row.type,
      assigned: row.beganAt !== null,
      beganAt: row.beganAt?.toISOString() ?? null,
    }));
  }

  /** Adds (recording when the user began) or removes one user; repeating either is harmless. */
  async function setUserAssigned(id: string, userId: string, assigned: boolean): Promise<void> {
    await mustFind(id);
    if (!assigned) {
      await db.delete(diplomaUsers).where(and(eq(diplomaUsers.diplomaId, id), eq(diplomaUsers.userId, userId)));
      return;
    }
    const [user] = await db.select({ type: users.type }).from(users).where(eq(users.id, userId));
    if (!user) throw new AppError('NOT_FOUND');
    if (!(enrollableTypes as readonly string[]).includes(user.type)) {
      throw new AppError('VALIDATION', { fields: { userId: messages.diplomaUserNotEnrollable } });
    }
    await db.insert(diplomaUsers).values({ diplomaId: id, userId }).onConflictDoNothing();
  }
  return { listUsers, setUserAssigned };
}
