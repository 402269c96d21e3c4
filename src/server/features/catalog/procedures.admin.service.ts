import { asc, count, desc, eq, inArray, or, sql, exists, and, type SQL } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { procedureCaptions, procedureChapters, procedureTags, procedures, tags } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { formatChapterTime, parseChapterTime } from '#shared/catalog/catalog.rules.ts';
import { foldForSearch } from '#shared/text.ts';
import { adminPageSize } from '#shared/records.schemas.ts';
import {
  type AdminProcedure,
  type AdminProcedureListQuery,
  type AdminProcedurePage,
  emptyProcedureCaptions,
  type ProcedureCaptionsInput,
  type ProcedureInput,
} from '#shared/catalog/procedures.admin.schemas.ts';
import { captionLanguages, captionVideos } from '#shared/catalog/captions.rules.ts';
import { uploadTargets } from '#shared/uploads/uploads.rules.ts';
import { containsPattern, foldSql } from '#server/db/search-sql.ts';
import type { UploadsService } from '#server/features/uploads/uploads.service.ts';

const fileFields = [
  ['previewImage', 'procedure-preview'],
  ['demoVideo', 'procedure-demo'],
  ['guidePdf', 'procedure-guide'],
  ['fullVideo', 'procedure-video'],
] as const;

/** Surgeries in the console: the public catalogue reads the same tables, so a save shows there at once. */
export function createAdminProceduresService(deps: { db: Db; uploads: UploadsService }) {
  const { db, uploads } = deps;

  const sortColumns = {
    createdAt: procedures.createdAt,
    name: procedures.name,
    type: procedures.type,
    species: procedures.species,
  } as const;

  /** One page of the list, searched, sorted and paged by the database. */
  async function list(query: AdminProcedureListQuery): Promise<AdminProcedurePage> {
    let where: SQL | undefined;
    if (query.q) {
      const pattern = containsPattern(foldForSearch(query.q));
      const matches = (column: Parameters<typeof foldSql>[0]) => sql`${foldSql(column)} like ${pattern}`;
      where = or(
        matches(procedures.name),
        matches(sql`${procedures.type}::text`),
        matches(sql`${procedures.species}::text`),
        exists(
          db
            .select({ one: sql`1` })
            .from(procedureTags)
            .innerJoin(tags, eq(tags.id, procedureTags.tagId))
            .where(and(eq(procedureTags.procedureId, procedures.id), matches(tags.name))),
        ),
      );
    }
    const order = query.dir === 'asc' ? asc : desc;
    const [totals] = await db.select({ total: count() }).from(procedures).where(where);
    const rows = await db
      .select({
        id: procedures.id,
        name: procedures.name,
        type: procedures.type,
        species: procedures.species,
        createdAt: procedures.createdAt,
      })
      .from(procedures)
      .where(where)
      .orderBy(order(sortColumns[query.sort]), asc(procedures.id))
      .limit(adminPageSize)
      .offset((query.page - 1) * adminPageSize);
    const tagRows = rows.length
      ? await db
          .select({ procedureId: procedureTags.procedureId, name: tags.name })
          .from(procedureTags)
          .innerJoin(tags, eq(tags.id, procedureTags.tagId))
          .where(
            inArray(
              procedureTags.procedureId,
              rows.map((row) => row.id),
            ),
          )
          .orderBy(asc(tags.name))
      : [];
    return {
      items: rows.map((row) => ({
        ...row,
        createdAt: row.createdAt.toISOString(),
        tags: tagRows.filter((tag) => tag.procedureId === row.id).map((tag) => tag.name),
      })),
      total: totals?.total ?? 0,
      page: query.page,
      pageSize: adminPageSize,
    };
  }

  async function captionsOf(id: string): Promise<ProcedureCaptionsInput> {
    const rows = await db.select().from(procedureCaptions).where(eq(procedureCaptions.procedureId, id));
    const captions = structuredClone(emptyProcedureCaptions);
    for (const row of rows) captions[row.video][row.language] = row.fileKey;
    return captions;
  }

  async function find(id: string) {
    const [row] = await db.select().from(procedures).where(eq(procedures.id, id));
    return row ?? null;
  }

  /** The form's values of one surgery. */
  async function get(id: string): Promise<AdminProcedure> {
    const row = await find(id);
    if (!row) throw new AppError('NOT_FOUND');
    const [tagRows, chapters, captions] = await Promise.all([
      db.select({ tagId: procedureTags.tagId }).from(procedureTags).where(eq(procedureTags.procedureId, id)),
      db
        .select()
        .from(procedureChapters)
        .where(eq(procedureChapters.procedureId, id))
        .orderBy(asc(procedureChapters.position)),
      captionsOf(id),
    ]);
    return {
      id: row.id,
      name: row.name,
      type: row.type,
      detail: row.detail,
      species: row.species,
      meta: row.meta,
      tagIds: tagRows.map((tag) => tag.tagId),
      previewImage: row.previewImage ?? '',
      demoVideo: row.demoVideo ?? '',
      guidePdf: row.guidePdf ?? '',
      fullVideo: row.fullVideo ?? '',
      chapters: chapters.map((chapter) => ({ name: chapter.name, time: formatChapterTime(chapter.timeSeconds) })),
      captions,
      createdAt: row.createdAt.toISOString(),
    };
  }

  /** Creates or replaces a surgery with its tags, markers and files; replaced files are deleted. */
  async function save(id: string, input: ProcedureInput): Promise<AdminProcedure> {
    const current = await find(id);
    const currentCaptions = current ? await captionsOf(id) : emptyProcedureCaptions;
    const captionFields = input.captions
      ? captionVideos.flatMap((video) =>
          captionLanguages.map((language) => ({
            field: `captions.${video}.${language}`,
            next: input.captions![video][language] || null,
            current: currentCaptions[video][language] || null,
            folder: `procedures/${id}`,
            kinds: uploadTargets['procedure-captions'].kinds,
          })),
        )
      : [];
    const { claimed, obsolete } = await uploads.plan([
      ...fileFields.map(([field, target]) => ({
        field,
        next: input[field],
        current: current?.[field] ?? null,
        folder: `procedures/${id}`,
        kinds: uploadTargets[target].kinds,
      })),
      ...captionFields,
    ]);
    const knownTags = input.tagIds.length
      ? await db
          .select({ id: tags.id })
          .from(tags)
          .where(inArray(tags.id, [...new Set(input.tagIds)]))
      : [];
    const values = {
      name: input.name,
      type: input.type,
      detail: input.detail,
      species: input.species,
      meta: input.meta,
      previewImage: input.previewImage,
      demoVideo: input.demoVideo,
      guidePdf: input.guidePdf,
      fullVideo: input.fullVideo,
      updatedAt: new Date(),
    };
    await db.transaction(async (tx) => {
      await tx
        .insert(procedures)
        .values({ id, ...values })
        .onConflictDoUpdate({ target: procedures.id, set: values });
      await tx.delete(procedureChapters).where(eq(procedureChapters.procedureId, id));
      if (input.chapters.length > 0) {
        await tx.insert(procedureChapters).values(
          input.chapters.map((chapter, index) => ({
            procedureId: id,
            position: index + 1,
            name: chapter.name,
            timeSeconds: parseChapterTime(chapter.time) ?? 0,
          })),
        );
      }
      await tx.delete(procedureTags).where(eq(procedureTags.procedureId, id));
      if (knownTags.length > 0)
        await tx.insert(procedureTags).values(knownTags.map((tag) => ({ procedureId: id, tagId: tag.id })));
      if (input.captions) {
        const { captions } = input;
        await tx.delete(procedureCaptions).where(eq(procedureCaptions.procedureId, id));
        const rows = captionVideos.flatMap((video) =>
          captionLanguages
            .filter((language) => captions[video][language])
            .map((language) => ({ procedureId: id, video, language, fileKey: captions[video][language] })),
        );
        if (rows.length > 0) await tx.insert(procedureCaptions).values(rows);
      }
      await uploads.claim(claimed, tx);
    });
    await uploads.removeFiles(obsolete);
    return get(id);
  }

  /** Deletes a surgery, its markers, tag links and subtitles (cascade) and all its files. */
  async function remove(id: string): Promise<void> {
    const captionKeys = await db
      .select({ key: procedureCaptions.fileKey })
      .from(procedureCaptions)
      .where(eq(procedureCaptions.procedureId, id));
    const [row] = await db.delete(procedures).where(eq(procedures.id, id)).returning();
    if (!row) throw new AppError('NOT_FOUND');
    await uploads.removeFiles([
      ...fileFields.map(([field]) => row[field]),
      ...captionKeys.map((caption) => caption.key),
    ]);
  }

  return { list, get, save, remove };
}

export type AdminProceduresService = ReturnType<typeof createAdminProceduresService>;
