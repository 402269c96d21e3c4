import { and, asc, count, desc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import {
  diplomaUsers,
  diplomaVideoChapters,
  diplomaVideoCompletions,
  diplomaVideoFiles,
  diplomaVideos,
  diplomas,
  examAnswers,
  examQuestions,
  examResults,
  exams,
  organizations,
  procedures,
  users,
} from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { messages } from '#shared/messages.ts';
import { formatChapterTime, parseChapterTime } from '#shared/catalog/catalog.rules.ts';
import { uploadFolder, uploadTargets, type UploadTarget } from '#shared/uploads/uploads.rules.ts';
import {
  centsToCost,
  costToCents,
  enrollableTypes,
  type AdminDiploma,
  type AdminDiplomaRow,
  type AdminDiplomaVideo,
  type AdminExam,
  type DiplomaInput,
  type DiplomaOptions,
  type DiplomaPreview,
  type DiplomaStatistics,
  type DiplomaUserRow,
  type ExamInput,
  type OwnVideoInput,
  type ProgressStatus,
  type DiplomaActivationWarnings,
} from '#shared/diplomas/diplomas.admin.schemas.ts';
import { buildSequence, diplomaProgressPercent } from '#shared/diplomas/diplomas.rules.ts';
import type { UploadsService } from '#server/features/uploads/uploads.service.ts';
import { hasVisibleText, sanitizeRichText } from '#server/services/rich-text.ts';

const generalFiles = [
  ['previewImage', 'diploma-preview-image'],
  ['previewPdf', 'diploma-preview-pdf'],
  ['certificateImage', 'diploma-certificate'],
] as const;

/** The Admin console's diplomas: general info, videos, users, exams, statistics and the preview. */
export function createDiplomasAdminService(deps: { db: Db; uploads: UploadsService }) {
  const { db, uploads } = deps;

  async function find(id: string) {
    const [row] = await db.select().from(diplomas).where(eq(diplomas.id, id));
    return row ?? null;
  }

  async function mustFind(id: string) {
    const row = await find(id);
    if (!row) throw new AppError('NOT_FOUND');
    return row;
  }

  /** Every diploma, newest first, with its video and user counts. */
  async function list(): Promise<AdminDiplomaRow[]> {
    const videoCount = db
      .select({ diplomaId: diplomaVideos.diplomaId, total: count().as('video_total') })
      .from(diplomaVideos)
      .groupBy(diplomaVideos.diplomaId)
      .as('video_counts');
    const userCount = db
      .select({ diplomaId: diplomaUsers.diplomaId, total: count().as('user_total') })
      .from(diplomaUsers)
      .groupBy(diplomaUsers.diplomaId)
      .as('user_counts');
    const rows = await db
      .select({
        id: diplomas.id,
        title: diplomas.title,
        isExternal: diplomas.isExternal,
        isActive: diplomas.isActive,
        isTest: diplomas.isTest,
        createdAt: diplomas.createdAt,
        videoCount: sql<number>`coalesce(${videoCount.total}, 0)::int`,
        userCount: sql<number>`coalesce(${userCount.total}, 0)::int`,
      })
      .from(diplomas)
      .leftJoin(videoCount, eq(videoCount.diplomaId, diplomas.id))
      .leftJoin(userCount, eq(userCount.diplomaId, diplomas.id))
      .orderBy(desc(diplomas.createdAt), asc(diplomas.id));
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      kind: row.isExternal ? 'External' : 'CxVet',
      isActive: row.isActive,
      isTest: row.isTest,
      videoCount: Number(row.videoCount),
      userCount: Number(row.userCount),
      createdAt: row.createdAt.toISOString(),
    }));
  }

  /** What the form's selectors offer: organizations, catalogue surgeries and possible administrators. */
  async function options(): Promise<DiplomaOptions> {
    const [organizationRows, procedureRows, people] = await Promise.all([
      db
        .select({ id: organizations.id, title: organizations.title })
        .from(organizations)
        .orderBy(asc(organizations.title)),
      db.select({ id: procedures.id, name: procedures.name }).from(procedures).orderBy(asc(procedures.name)),
      db
        .select({ email: users.email, name: users.name })
        .from(users)
        .where(eq(users.isDisabled, false))
        .orderBy(asc(users.email)),
    ]);
    return { organizations: organizationRows, procedures: procedureRows, people };
  }

  async function get(id: string): Promise<AdminDiploma> {
    const row = await mustFind(id);
    const [admin] = row.adminUserId
      ? await db.select({ email: users.email }).from(users).where(eq(users.id, row.adminUserId))
      : [];
    return {
      id: row.id,
      title: row.title,
      descriptionHtml: row.descriptionHtml,
      previewImage: row.previewImage ?? '',
      previewPdf: row.previewPdf ?? '',
      certificateImage: row.certificateImage,
      cost: centsToCost(row.costCents),
      costMxn: row.costMxnCents === null ? '' : centsToCost(row.costMxnCents),
      kind: row.isExternal ? 'External' : 'CxVet',
      organizationId: row.organizationId,
      adminEmail: admin?.email ?? '',
      isTest: row.isTest,
      isActive: row.isActive,
      createdAt: row.createdAt.toISOString(),
    };
  }

  /** Creates (inactive until it has a video) or updates the general information; replaced files are deleted. */
  async function save(id: string, input: DiplomaInput): Promise<AdminDiploma> {
    const descriptionHtml = sanitizeRichText(input.descriptionHtml);
    const fields: Record<string, string> = {};
    if (!hasVisibleText(descriptionHtml)) fields.descriptionHtml = messages.fieldRequired;
    let adminUserId: string | null = null;
    if (input.adminEmail) {
      const [admin] = await db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.email, input.adminEmail.toLowerCase()));
      if (admin) adminUserId = admin.id;
      else fields.adminEmail = messages.diplomaAdminUnknown;
    }
    const organizationId = input.kind === 'External' ? input.organizationId : null;
    if (organizationId) {
      const [organization] = await db
        .select({ id: organizations.id })
        .from(organizations)
        .where(eq(organizations.id, organizationId));
      if (!organization) fields.organizationId = messages.fieldRequired;
    }
    if (Object.keys(fields).length > 0) throw new AppError('VALIDATION', { fields });

    const current = await find(id);
    const { claimed, obsolete } = await uploads.plan(
      generalFiles.map(([field, target]) => ({
        field,
        next: input[field] || null,
        current: current?.[field] ?? null,
        folder: uploadFolder(target, id),
        kinds: uploadTargets[target].kinds,
      })),
    );
    const values = {
      title: input.title,
      descriptionHtml,
      previewImage: input.previewImage,
      previewPdf: input.previewPdf,
      certificateImage: input.certificateImage || null,
      costCents: costToCents(input.cost),
      costMxnCents: input.costMxn ? costToCents(input.costMxn) : null,
      isExternal: input.kind === 'External',
      organizationId,
      adminUserId,
      isTest: input.isTest,
    };
    await db.transaction(async (tx) => {
      // a new diploma has no videos yet: it stays inactive until the Admin activates it
      await tx
        .insert(diplomas)
        .values({ id, ...values, isActive: false })
        .onConflictDoUpdate({ target: diplomas.id, set: values });
      await uploads.claim(claimed, tx);
    });
    await uploads.removeFiles(obsolete);
    return get(id);
  }

  /** Activar / Desactivar from the list; an active diploma needs at least one video. */
  async function setActive(id: string, isActive: boolean): Promise<void> {
    await db.transaction(async (tx) => {
      const [row] = await tx.select({ id: diplomas.id }).from(diplomas).where(eq(diplomas.id, id)).for('update');
      if (!row) throw new AppError('NOT_FOUND');
      if (isActive) {
        const [videos] = await tx.select({ total: count() }).from(diplomaVideos).where(eq(diplomaVideos.diplomaId, id));
        if ((videos?.total ?? 0) === 0) throw new AppError('DIPLOMA_NEEDS_VIDEO');
      }
      await tx.update(diplomas).set({ isActive }).where(eq(diplomas.id, id));
    });
  }

  /** Exams members would never see and videos with nothing to play, asked before activating. */
  async function activationWarnings(id: string): Promise<DiplomaActivationWarnings> {
    await mustFind(id);
    const videoRows = await db
      .select({ video: diplomaVideos, fullVideo: procedures.fullVideo, procedureName: procedures.name })
      .from(diplomaVideos)
      .leftJoin(procedures, eq(procedures.id, diplomaVideos.procedureId))
      .where(eq(diplomaVideos.diplomaId, id))
      .orderBy(asc(diplomaVideos.position));
    const examRows = await db
      .select({ title: exams.title, afterVideoPosition: exams.afterVideoPosition })
      .from(exams)
      .where(and(eq(exams.diplomaId, id), eq(exams.isActive, true)))
      .orderBy(asc(exams.createdAt));
    const positions = new Set(videoRows.map((row) => row.video.position));
    return {
      unassignedExams: examRows
        .filter((exam) => exam.afterVideoPosition === null || !positions.has(exam.afterVideoPosition))
        .map((exam) => exam.title),
      videosWithoutFile: videoRows
        .filter(({ video, fullVideo }) => video.isActive && (video.procedureId ? !fullVideo : !video.video))
        .map(({ video, procedureName }) => procedureName ?? video.title ?? ''),
    };
  }

  /** Every stored file of a diploma: its own, and those of its own videos. */
  async function storedFiles(id: string): Promise<string[]> {
    const row = await find(id);
    if (!row) return [];
    const videoRows = await db
      .select({ video: diplomaVideos.video })
      .from(diplomaVideos)
      .where(eq(diplomaVideos.diplomaId, id));
    const fileRows = await db
      .select({ file: diplomaVideoFiles.file })
      .from(diplomaVideoFiles)
      .innerJoin(diplomaVideos, eq(diplomaVideos.id, diplomaVideoFiles.videoId))
      .where(eq(diplomaVideos.diplomaId, id));
    return [
      row.previewImage,
      row.previewPdf,
      row.certificateImage,
      ...videoRows.map((video) => video.video),
      ...fileRows.map((file) => file.file),
    ].filter((key): key is string => Boolean(key));
  }

  /** 'Eliminar Diplomado': the record with its videos, exams, answers and users (cascade), then its files. */
  async function remove(id: string): Promise<void> {
    const files = await storedFiles(id);
    const deleted = await db.delete(diplomas).where(eq(diplomas.id, id)).returning({ id: diplomas.id });
    if (deleted.length === 0) throw new AppError('NOT_FOUND');
    await uploads.removeFiles(files);
  }

  // ---------- videos ----------

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

  // ---------- exams ----------

  async function listExams(id: string): Promise<AdminExam[]> {
    await mustFind(id);
    const [examRows, videos] = await Promise.all([
      db
        .select()
        .from(exams)
        .where(eq(exams.diplomaId, id))
        .orderBy(sql`${exams.afterVideoPosition} asc nulls last`, asc(exams.createdAt)),
      listVideos(id),
    ]);
    const examIds = examRows.map((exam) => exam.id);
    const [questions, answered] = examIds.length
      ? await Promise.all([
          db
            .select()
            .from(examQuestions)
            .where(inArray(examQuestions.examId, examIds))
            .orderBy(asc(examQuestions.position)),
          answeredExamIds(examIds),
        ])
      : [[], new Set<string>()];
    return examRows.map((exam) => {
      const video = videos.find((candidate) => candidate.position === exam.afterVideoPosition) ?? null;
      return {
        id: exam.id,
        title: exam.title,
        videoId: video?.id ?? null,
        videoTitle: video?.title ?? null,
        isActive: exam.isActive,
        hasAnswers: answered.has(exam.id),
        questions: questions
          .filter((question) => question.examId === exam.id)
          .map((question) => ({
            question: question.question,
            answers: question.answers,
            correctAnswer: question.correctAnswer,
          })),
      };
    });
  }

  /** Exams some member has answered or completed. */
  async function answeredExamIds(examIds: string[], executor: Pick<Db, 'selectDistinct'> = db): Promise<Set<string>> {
    const [withAnswers, withResults] = await Promise.all([
      executor
        .selectDistinct({ examId: examQuestions.examId })
        .from(examAnswers)
        .innerJoin(examQuestions, eq(examQuestions.id, examAnswers.questionId))
        .where(and(inArray(examQuestions.examId, examIds), sql`${examAnswers.answer} >= 0`)),
      executor
        .selectDistinct({ examId: examResults.examId })
        .from(examResults)
        .where(inArray(examResults.examId, examIds)),
    ]);
    return new Set([...withAnswers, ...withResults].map((row) => row.examId));
  }

  /**
   * Creates or updates an exam. Each video takes at most one exam, a diploma has fewer exams than videos,
   * and once members answered it only the title, video and state may change.
   */
  async function saveExam(id: string, examId: string, input: ExamInput): Promise<void> {
    await db.transaction(async (tx) => {
      // one writer per diploma at a time, so two new exams cannot both pass the count check
      const [diploma] = await tx.select({ id: diplomas.id }).from(diplomas).where(eq(diplomas.id, id)).for('update');
      if (!diploma) throw new AppError('NOT_FOUND');
      const [existing] = await tx.select().from(exams).where(eq(exams.id, examId));
      if (existing && existing.diplomaId !== id) throw new AppError('NOT_FOUND');
      const videos = await tx
        .select({ id: diplomaVideos.id, position: diplomaVideos.position })
        .from(diplomaVideos)
        .where(eq(diplomaVideos.diplomaId, id));
      if (videos.length === 0) throw new AppError('DIPLOMA_NEEDS_VIDEO');
      if (!existing) {
        const [examCount] = await tx.select({ total: count() }).from(exams).where(eq(exams.diplomaId, id));
        if ((examCount?.total ?? 0) >= videos.length) throw new AppError('DIPLOMA_EXAM_LIMIT');
      }
      let afterVideoPosition: number | null = null;
      if (input.videoId) {
        const video = videos.find((candidate) => candidate.id === input.videoId);
        if (!video) throw new AppError('VALIDATION', { fields: { videoId: messages.selectValue } });
        const [taken] = await tx
          .select({ id: exams.id })
          .from(exams)
          .where(
            and(eq(exams.diplomaId, id), eq(exams.afterVideoPosition, video.position), sql`${exams.id} <> ${examId}`),
          );
        if (taken) throw new AppError('VALIDATION', { fields: { videoId: messages.videoHasExam } });
        afterVideoPosition = video.position;
      }
      const questions = input.questions.map((question) => ({
        question: question.question,
        answers: question.answers,
        correctAnswer: question.correctAnswer,
      }));
      if (existing) {
        await tx.update(exams).set({ title: input.title, afterVideoPosition }).where(eq(exams.id, examId));
        const stored = await tx
          .select({
            question: examQuestions.question,
            answers: examQuestions.answers,
            correctAnswer: examQuestions.correctAnswer,
          })
          .from(examQuestions)
          .where(eq(examQuestions.examId, examId))
          .orderBy(asc(examQuestions.position));
        if (JSON.stringify(stored) === JSON.stringify(questions)) return;
        if ((await answeredExamIds([examId], tx)).size > 0) throw new AppError('DIPLOMA_EXAM_LOCKED');
        await tx.delete(examQuestions).where(eq(examQuestions.examId, examId));
      } else {
        await tx.insert(exams).values({ id: examId, diplomaId: id, title: input.title, afterVideoPosition });
      }
      await tx
        .insert(examQuestions)
        .values(questions.map((question, index) => ({ examId, position: index + 1, ...question })));
    });
  }

  async function setExamActive(id: string, examId: string, isActive: boolean): Promise<void> {
    const updated = await db
      .update(exams)
      .set({ isActive })
      .where(and(eq(exams.id, examId), eq(exams.diplomaId, id)))
      .returning({ id: exams.id });
    if (updated.length === 0) throw new AppError('NOT_FOUND');
  }

  async function removeExam(id: string, examId: string): Promise<void> {
    const deleted = await db
      .delete(exams)
      .where(and(eq(exams.id, examId), eq(exams.diplomaId, id)))
      .returning({ id: exams.id });
    if (deleted.length === 0) throw new AppError('NOT_FOUND');
  }

  // ---------- users ----------

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

  // ---------- progress, statistics and preview ----------

  /** Videos and exams of a diploma with one viewer's completions, in the shape of the shared sequence rules. */
  async function contentOf(id: string) {
    const [videos, examList] = await Promise.all([listVideos(id), listExams(id)]);
    const positionOf = (exam: AdminExam) => videos.find((video) => video.id === exam.videoId)?.position ?? null;
    const itemsFor = (isExternal: boolean, done: { videos: Set<string>; exams: Set<string>; passed: Set<string> }) =>
      buildSequence(
        { isExternal },
        videos.map((video) => ({
          id: video.id,
          position: video.position,
          isActive: video.isActive,
          completed: done.videos.has(video.id),
        })),
        examList.map((exam) => ({
          id: exam.id,
          afterVideoPosition: positionOf(exam),
          isActive: exam.isActive,
          completed: done.exams.has(exam.id),
          passed: done.passed.has(exam.id),
        })),
      );
    return { videos, exams: examList, itemsFor };
  }

  /** The statistics tab: scores per user, the progress donut and per-exam and per-question figures. */
  async function statistics(id: string): Promise<DiplomaStatistics> {
    const diploma = await mustFind(id);
    const { videos, exams: examList, itemsFor } = await contentOf(id);
    // exams in the order members meet them; unassigned ones last
    const order = (exam: AdminExam) => videos.find((video) => video.id === exam.videoId)?.position ?? Infinity;
    const shown = [...examList].sort((a, b) => order(a) - order(b));
    const members = await db
      .select({ id: users.id, name: users.name, email: users.email, completedAt: diplomaUsers.completedAt })
      .from(diplomaUsers)
      .innerJoin(users, eq(users.id, diplomaUsers.userId))
      .where(eq(diplomaUsers.diplomaId, id))
      .orderBy(asc(users.name), asc(users.email));
    const memberIds = members.map((member) => member.id);
    const examIds = shown.map((exam) => exam.id);
    const videoIds = videos.map((video) => video.id);
    const [results, questionRows, answers, completions] = await Promise.all([
      examIds.length && memberIds.length
        ? db
            .select()
            .from(examResults)
            .where(and(inArray(examResults.examId, examIds), inArray(examResults.userId, memberIds)))
        : [],
      examIds.length
        ? db
            .select()
            .from(examQuestions)
            .where(inArray(examQuestions.examId, examIds))
            .orderBy(asc(examQuestions.position))
        : [],
      examIds.length && memberIds.length
        ? db
            .select({ questionId: examAnswers.questionId, userId: examAnswers.userId, answer: examAnswers.answer })
            .from(examAnswers)
            .innerJoin(examQuestions, eq(examQuestions.id, examAnswers.questionId))
            .where(
              and(
                inArray(examQuestions.examId, examIds),
                inArray(examAnswers.userId, memberIds),
                sql`${examAnswers.answer} >= 0`,
              ),
            )
        : [],
      videoIds.length && memberIds.length
        ? db
            .select()
            .from(diplomaVideoCompletions)
            .where(
              and(
                inArray(diplomaVideoCompletions.videoId, videoIds),
                inArray(diplomaVideoCompletions.userId, memberIds),
              ),
            )
        : [],
    ]);

    const progress = { completed: 0, inProgress: 0, notStarted: 0 };
    const userRows = members.map((member) => {
      const mine = results.filter((result) => result.userId === member.id);
      const done = {
        videos: new Set(
          completions.filter((completion) => completion.userId === member.id).map((completion) => completion.videoId),
        ),
        exams: new Set(mine.map((result) => result.examId)),
        passed: new Set(mine.filter((result) => result.passed).map((result) => result.examId)),
      };
      const progressPercent = diplomaProgressPercent(diploma, itemsFor(diploma.isExternal, done));
      const started =
        done.videos.size > 0 || done.exams.size > 0 || answers.some((answer) => answer.userId === member.id);
      const status: ProgressStatus =
        member.completedAt || progressPercent >= 100 ? 'completed' : started ? 'inProgress' : 'notStarted';
      progress[status] += 1;
      return {
        id: member.id,
        name: member.name,
        email: member.email,
        status,
        progressPercent,
        scores: shown.map((exam) => mine.find((result) => result.examId === exam.id)?.scorePercent ?? null),
      };
    });

    return {
      exams: shown.map((exam) => {
        const examResultsRows = results.filter((result) => result.examId === exam.id);
        const passed = examResultsRows.filter((result) => result.passed).length;
        return {
          id: exam.id,
          title: exam.title,
          completed: examResultsRows.length,
          notCompleted: members.length - examResultsRows.length,
          passed,
          rejected: examResultsRows.length - passed,
          questions: questionRows
            .filter((question) => question.examId === exam.id)
            .map((question, index) => {
              const given = answers.filter((answer) => answer.questionId === question.id);
              const correct = given.filter((answer) => answer.answer === question.correctAnswer).length;
              return {
                label: `P${index + 1}`,
                question: question.question,
                correct,
                incorrect: given.length - correct,
              };
            }),
        };
      }),
      users: userRows,
      progress,
    };
  }

  /** The read-only sequence as a member sees it (shared locking rules), with the viewer's own completions. */
  async function preview(id: string, viewerId: string): Promise<DiplomaPreview> {
    const diploma = await mustFind(id);
    const { videos, exams: examList, itemsFor } = await contentOf(id);
    const videoIds = videos.map((video) => video.id);
    const examIds = examList.map((exam) => exam.id);
    const [completions, results] = await Promise.all([
      videoIds.length
        ? db
            .select({ videoId: diplomaVideoCompletions.videoId })
            .from(diplomaVideoCompletions)
            .where(
              and(inArray(diplomaVideoCompletions.videoId, videoIds), eq(diplomaVideoCompletions.userId, viewerId)),
            )
        : [],
      examIds.length
        ? db
            .select({ examId: examResults.examId, passed: examResults.passed })
            .from(examResults)
            .where(and(inArray(examResults.examId, examIds), eq(examResults.userId, viewerId)))
        : [],
    ]);
    const items = itemsFor(diploma.isExternal, {
      videos: new Set(completions.map((row) => row.videoId)),
      exams: new Set(results.map((row) => row.examId)),
      passed: new Set(results.filter((row) => row.passed).map((row) => row.examId)),
    });
    return {
      id: diploma.id,
      title: diploma.title,
      descriptionHtml: diploma.descriptionHtml,
      kind: diploma.isExternal ? 'External' : 'CxVet',
      items: items.map((item) =>
        item.type === 'video'
          ? {
              type: 'video' as const,
              locked: !item.enabled,
              completed: item.completed,
              video: videos.find((video) => video.id === item.id)!,
            }
          : {
              type: 'exam' as const,
              locked: !item.enabled,
              completed: item.completed,
              exam: examList.find((exam) => exam.id === item.id)!,
            },
      ),
    };
  }

  return {
    list,
    options,
    get,
    save,
    setActive,
    activationWarnings,
    remove,
    listVideos,
    linkVideo,
    saveOwnVideo,
    setVideoActive,
    moveVideo,
    removeVideo,
    listExams,
    saveExam,
    setExamActive,
    removeExam,
    listUsers,
    setUserAssigned,
    statistics,
    preview,
  };
}

export type DiplomasAdminService = ReturnType<typeof createDiplomasAdminService>;
