import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import {
  diplomaVideoChapters,
  diplomaVideoFiles,
  diplomaVideos,
  diplomas,
  exams,
  procedures,
} from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { messages } from '#shared/messages.ts';
import { formatChapterTime, parseChapterTime } from '#shared/catalog/catalog.rules.ts';
import { uploadFolder, uploadTargets, type UploadTarget } from '#shared/uploads/uploads.rules.ts';
import { type AdminDiplomaVideo, type OwnVideoInput } from '#shared/diplomas/diplomas.admin.schemas.ts';
import type { UploadsService } from '#server/features/uploads/uploads.service.ts';

type MustFind = (id: string) => Promise<typeof diplomas.$inferSelect>;
/** A diploma's videos in the Admin console: catalogue links, own videos with their files, order and state. */
export function createDiplomaVideosAdmin(deps: { db: Db; uploads: UploadsService; mustFind: MustFind }) {
  const { db, uploads, mustFind } = deps;

  async function listVideos(id: string): Promise<AdminDiplomaVideo[]> {
    await mustFind(id);
    const rows = await db
      .select({
        video: diplomaVideos,
        procedure: {
          name: procedures.name,
          detail: procedures.detail,
          previewImage: procedures.previewImage,
          guidePdf: procedures.guidePdf,
        },
      })
      .from(diplomaVideos)
      .leftJoin(procedures, eq(procedures.id, diplomaVideos.procedureId))
      .where(eq(diplomaVideos.diplomaId, id))
      .orderBy(asc(diplomaVideos.position));
    const ids = rows.map((row) => row.video.id);
    const [chapters, files] = ids.length
      ? await Promise.all([
          db
            .select()
            .from(diplomaVideoChapters)
            .where(inArray(diplomaVideoChapters.videoId, ids))
            .orderBy(asc(diplomaVideoChapters.position)),
          db
            .select()
            .from(diplomaVideoFiles)
            .where(inArray(diplomaVideoFiles.videoId, ids))
            .orderBy(asc(diplomaVideoFiles.position)),
        ])
      : [[], []];
    return rows.map(({ video, procedure }) => ({
      id: video.id,
      position: video.position,
      kind: video.procedureId ? 'procedure' : 'own',
      procedureId: video.procedureId,
      title: video.procedureId ? (procedure?.name ?? '') : (video.title ?? ''),
      description: video.procedureId ? (procedure?.detail ?? '') : (video.description ?? ''),
      video: video.procedureId ? null : video.video,
      previewImage: procedure?.previewImage ?? null,
      guidePdf: procedure?.guidePdf ?? null,
      isActive: video.isActive,
      chapters: chapters
        .filter((chapter) => chapter.videoId === video.id)
        .map((chapter) => ({ name: chapter.name, time: formatChapterTime(chapter.timeSeconds) })),
      pdfs: files
        .filter((file) => file.videoId === video.id && file.kind === 'pdf')
        .map((file) => ({ title: file.title, file: file.file })),
      images: files
        .filter((file) => file.videoId === video.id && file.kind === 'image')
        .map((file) => ({ title: file.title, file: file.file })),
    }));
  }

  async function nextPosition(tx: Pick<Db, 'select'>, id: string): Promise<number> {
    const [row] = await tx
      .select({ last: sql<number | null>`max(${diplomaVideos.position})` })
      .from(diplomaVideos)
      .where(eq(diplomaVideos.diplomaId, id));
    return row?.last === null || row?.last === undefined ? 1 : Number(row.last) + 1;
  }

  /** Adds a catalogue surgery at the end of the list. */
  async function linkVideo(id: string, procedureId: string): Promise<void> {
    const [procedure] = await db.select({ id: procedures.id }).from(procedures).where(eq(procedures.id, procedureId));
    if (!procedure) throw new AppError('VALIDATION', { fields: { procedureId: messages.selectValue } });
    await db.transaction(async (tx) => {
      const [row] = await tx.select({ id: diplomas.id }).from(diplomas).where(eq(diplomas.id, id)).for('update');
      if (!row) throw new AppError('NOT_FOUND');
      await tx.insert(diplomaVideos).values({ diplomaId: id, procedureId, position: await nextPosition(tx, id) });
    });
  }

  async function findVideo(id: string, videoId: string) {
    const [video] = await db
      .select()
      .from(diplomaVideos)
      .where(and(eq(diplomaVideos.id, videoId), eq(diplomaVideos.diplomaId, id)));
    return video ?? null;
  }

  /** Creates or replaces a diploma's own video with its markers, PDFs and images; replaced files are deleted. */
  async function saveOwnVideo(id: string, videoId: string, input: OwnVideoInput): Promise<void> {
    await mustFind(id);
    const current = await findVideo(id, videoId);
    if (!current) {
      const [elsewhere] = await db
        .select({ id: diplomaVideos.id })
        .from(diplomaVideos)
        .where(eq(diplomaVideos.id, videoId));
      if (elsewhere) throw new AppError('NOT_FOUND');
    }
    if (current?.procedureId) throw new AppError('VALIDATION', { fields: { title: messages.fieldRequired } });
    const currentFiles = current
      ? await db.select().from(diplomaVideoFiles).where(eq(diplomaVideoFiles.videoId, videoId))
      : [];
    const rule = (target: UploadTarget, field: string, next: string | null, previous: string | null) => ({
      field,
      next,
      current: previous,
      folder: uploadFolder(target, id),
      kinds: uploadTargets[target].kinds,
    });
    const keptKeys = new Set([...input.pdfs, ...input.images].map((file) => file.file));
    const previousKeys = new Set(currentFiles.map((file) => file.file));
    const { claimed, obsolete } = await uploads.plan([
      rule('diploma-video', 'video', input.video, current?.video ?? null),
      ...input.pdfs
        .filter((file) => !previousKeys.has(file.file))
        .map((file, index) => rule('diploma-video-pdf', `pdfs.${index}`, file.file, null)),
      ...input.images
        .filter((file) => !previousKeys.has(file.file))
        .map((file, index) => rule('diploma-video-image', `images.${index}`, file.file, null)),
      ...currentFiles
        .filter((file) => !keptKeys.has(file.file))
        .map((file) => rule('diploma-video-pdf', 'files', null, file.file)),
    ]);
    await db.transaction(async (tx) => {
      const values = { title: input.title, description: input.description, video: input.video };
      if (current) {
        await tx.update(diplomaVideos).set(values).where(eq(diplomaVideos.id, videoId));
      } else {
        await tx.select({ id: diplomas.id }).from(diplomas).where(eq(diplomas.id, id)).for('update');
        await tx
          .insert(diplomaVideos)
          .values({ id: videoId, diplomaId: id, position: await nextPosition(tx, id), ...values });
      }
      await tx.delete(diplomaVideoChapters).where(eq(diplomaVideoChapters.videoId, videoId));
      if (input.chapters.length > 0) {
        await tx.insert(diplomaVideoChapters).values(
          input.chapters.map((chapter, index) => ({
            videoId,
            position: index + 1,
            name: chapter.name,
            timeSeconds: parseChapterTime(chapter.time) ?? 0,
          })),
        );
      }
      await tx.delete(diplomaVideoFiles).where(eq(diplomaVideoFiles.videoId, videoId));
      const files = [
        ...input.pdfs.map((file) => ({ ...file, kind: 'pdf' as const })),
        ...input.images.map((file) => ({ ...file, kind: 'image' as const })),
      ];
      if (files.length > 0) {
        await tx.insert(diplomaVideoFiles).values(
          files.map((file, index) => ({
            videoId,
            kind: file.kind,
            title: file.title,
            file: file.file,
            fileName: file.file.split('/').pop() ?? file.file,
            position: index + 1,
          })),
        );
      }
      await uploads.claim(claimed, tx);
    });
    await uploads.removeFiles(obsolete);
  }

  async function setVideoActive(id: string, videoId: string, isActive: boolean): Promise<void> {
    const updated = await db
      .update(diplomaVideos)
      .set({ isActive })
      .where(and(eq(diplomaVideos.id, videoId), eq(diplomaVideos.diplomaId, id)))
      .returning({ id: diplomaVideos.id });
    if (updated.length === 0) throw new AppError('NOT_FOUND');
  }

  /** Swaps a video with its neighbour; an exam keeps following its video. */
  async function moveVideo(id: string, videoId: string, direction: 'up' | 'down'): Promise<void> {
    await db.transaction(async (tx) => {
      const [row] = await tx.select({ id: diplomas.id }).from(diplomas).where(eq(diplomas.id, id)).for('update');
      if (!row) throw new AppError('NOT_FOUND');
      const videos = await tx
        .select({ id: diplomaVideos.id, position: diplomaVideos.position })
        .from(diplomaVideos)
        .where(eq(diplomaVideos.diplomaId, id))
        .orderBy(asc(diplomaVideos.position));
      const index = videos.findIndex((video) => video.id === videoId);
      if (index < 0) throw new AppError('NOT_FOUND');
      const other = videos[direction === 'up' ? index - 1 : index + 1];
      const self = videos[index]!;
      if (!other) return;
      await tx.update(diplomaVideos).set({ position: other.position }).where(eq(diplomaVideos.id, self.id));
      await tx.update(diplomaVideos).set({ position: self.position }).where(eq(diplomaVideos.id, other.id));
      await tx
        .update(exams)
        .set({
          afterVideoPosition: sql`case when ${exams.afterVideoPosition} = ${self.position} then ${other.position}::int else ${self.position}::int end`,
        })
        .where(and(eq(exams.diplomaId, id), inArray(exams.afterVideoPosition, [self.position, other.position])));
    });
  }

  /** Removes a video and its files; its exam becomes unassigned; an active diploma keeps at least one video. */
  async function removeVideo(id: string, videoId: string): Promise<void> {
    const files = await db
      .select({ file: diplomaVideoFiles.file })
      .from(diplomaVideoFiles)
      .where(eq(diplomaVideoFiles.videoId, videoId));
    const removed = await db.transaction(async (tx) => {
      const [diploma] = await tx
        .select({ isActive: diplomas.isActive })
        .from(diplomas)
        .where(eq(diplomas.id, id))
        .for('update');
      if (!diploma) throw new AppError('NOT_FOUND');
      const [video] = await tx
        .delete(diplomaVideos)
        .where(and(eq(diplomaVideos.id, videoId), eq(diplomaVideos.diplomaId, id)))
        .returning();
      if (!video) throw new AppError('NOT_FOUND');
      const [left] = await tx.select({ total: count() }).from(diplomaVideos).where(eq(diplomaVideos.diplomaId, id));
      if (diploma.isActive && (left?.total ?? 0) === 0) throw new AppError('DIPLOMA_NEEDS_VIDEO');
      await tx
        .update(exams)
        .set({ afterVideoPosition: null })
        .where(and(eq(exams.diplomaId, id), eq(exams.afterVideoPosition, video.position)));
      return video;
    });
    await uploads.removeFiles([removed.video, ...files.map((file) => file.file)]);
  }
  return { listVideos, linkVideo, saveOwnVideo, setVideoActive, moveVideo, removeVideo };
}
