import { and, asc, eq, ne } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { tags } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { messages } from '#shared/messages.ts';
import type { AdminTag, TagInput } from '#shared/catalog/tags.admin.schemas.ts';

export function createAdminTagsService(deps: { db: Db }) {
  const { db } = deps;

  async function list(): Promise<AdminTag[]> {
    return db.select({ id: tags.id, name: tags.name }).from(tags).orderBy(asc(tags.name));
  }

  async function get(id: string): Promise<AdminTag> {
    const [row] = await db.select({ id: tags.id, name: tags.name }).from(tags).where(eq(tags.id, id));
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  /** Creates or renames a tag; names are unique. */
  async function save(id: string, input: TagInput): Promise<AdminTag> {
    const [taken] = await db
      .select({ id: tags.id })
      .from(tags)
      .where(and(eq(tags.name, input.name), ne(tags.id, id)));
    if (taken) throw new AppError('VALIDATION', { fields: { name: messages.tagNameTaken } });
    await db
      .insert(tags)
      .values({ id, name: input.name })
      .onConflictDoUpdate({ target: tags.id, set: { name: input.name } });
    return { id, name: input.name };
  }

  /** Deletes a tag; surgeries lose it (cascade) and keep everything else. */
  async function remove(id: string): Promise<void> {
    const [row] = await db.delete(tags).where(eq(tags.id, id)).returning();
    if (!row) throw new AppError('NOT_FOUND');
  }

  return { list, get, save, remove };
}

export type AdminTagsService = ReturnType<typeof createAdminTagsService>;
