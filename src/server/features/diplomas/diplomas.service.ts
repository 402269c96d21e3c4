import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { RenditionsService } from '#server/features/renditions/renditions.service.ts';
import type { Db } from '#server/db/client.ts';
import {
  certificates,
  diplomaUsers,
  diplomaVideoChapters,
  diplomaVideoCompletions,
  diplomaVideoFiles,
  diplomaVideos,
  diplomas,
  examAnswers,
  examQuestions,
  exams,
  organizations,
  procedures,
} from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { mediaUrl } from '#server/services/media-url.ts';
import { examStatus, formatFolio } from '#shared/diplomas/diplomas.rules.ts';
import type { Course, CourseItem, DiplomaSalesPage, MemberDiplomaCard } from '#shared/diplomas/diplomas.schemas.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import type { AnalyticsService } from '#server/features/analytics/analytics.service.ts';
import type { ViewingService } from '#server/features/viewing/viewing.service.ts';
import type { WatchedTimeService } from '#server/features/watching/watched-time.service.ts';
import type { SavePosition } from '#shared/watching/watching.schemas.ts';
import { createDiplomaAccess, type Reader } from './diploma-access.service.ts';
import { createDiplomaExams } from './diploma-exams.service.ts';

export function createDiplomasService(deps: {
  db: Db;
  analytics?: AnalyticsService;
  ladders?: Pick<RenditionsService, 'ready'>;
  watchedTime: WatchedTimeService;
  viewing: Pick<ViewingService, 'current'>;
}) {
  const { db, watchedTime } = deps;

  const access = createDiplomaAccess({ db, watchedTime });
  const {
    canAccessContent,
    isEnrolled,
    findActive,
    requireCourseReader,
    requireMember,
    loadSequence,
    requireEnabled,
    recordCompletion,
  } = access;
  const memberExams = createDiplomaExams({ db, access });

  /** Spec 3 §2: active diplomas, newest first, test diplomas hidden, with whether the member is in each. */
  async function listForMember(user: UserRow): Promise<MemberDiplomaCard[]> {
    const rows = await db
      .select({ diploma: diplomas, organizationName: organizations.title })
      .from(diplomas)
      .leftJoin(organizations, eq(organizations.id, diplomas.organizationId))
      .where(and(eq(diplomas.isActive, true), eq(diplomas.isTest, false)))
      .orderBy(desc(diplomas.createdAt));
    const enrolled = await db
      .select({ diplomaId: diplomaUsers.diplomaId })
      .from(diplomaUsers)
      .where(eq(diplomaUsers.userId, user.id));
    const enrolledIds = new Set(enrolled.map((row) => row.diplomaId));
    const cards: MemberDiplomaCard[] = [];
    for (const { diploma, organizationName } of rows) {
      const isEnrolledHere = enrolledIds.has(diploma.id);
      cards.push({
        id: diploma.id,
        title: diploma.title,
        descriptionHtml: diploma.descriptionHtml,
        previewImageUrl: mediaUrl(diploma.previewImage),
        isExternal: diploma.isExternal,
        organizationName: diploma.isExternal ? (organizationName ?? '') : 'CxVet',
        costCents: diploma.costCents,
        isEnrolled: isEnrolledHere,
        progressPercent: isEnrolledHere ? (await loadSequence(diploma, user.id)).progressPercent : null,
        createdAt: diploma.createdAt.toISOString(),
      });
    }
    return cards;
  }

  /** The preview and purchase page; records DIPLOMADO_PREVIEW_PAGE with the visitor's type. */
  async function salesPage(user: UserRow, diplomaId: string): Promise<DiplomaSalesPage> {
    const diploma = await findActive(diplomaId);
    const [videoCount] = await db
      .select({ value: count() })
      .from(diplomaVideos)
      .where(and(eq(diplomaVideos.diplomaId, diplomaId), eq(diplomaVideos.isActive, true)));
    const [examCount] = await db
      .select({ value: count() })
      .from(exams)
      .where(and(eq(exams.diplomaId, diplomaId), eq(exams.isActive, true)));
    await deps.analytics?.record('DIPLOMADO_PREVIEW_PAGE', diploma.title, user);
    return {
      id: diploma.id,
      title: diploma.title,
      descriptionHtml: diploma.descriptionHtml,
      previewImageUrl: mediaUrl(diploma.previewImage),
      previewPdfUrl: mediaUrl(diploma.previewPdf),
      isExternal: diploma.isExternal,
      organizationName: diploma.organizationName,
      costCents: diploma.costCents,
      costMxnCents: diploma.isTest ? null : diploma.costMxnCents,
      isEnrolled: await isEnrolled(user.id, diplomaId),
      progressPercent: null,
      createdAt: diploma.createdAt.toISOString(),
      videoCount: videoCount?.value ?? 0,
      examCount: examCount?.value ?? 0,
    };
  }

  /** The member's course: the ordered items with locking, progress and certificate; no correct answers. */
  async function course(user: UserRow, diplomaId: string): Promise<Course> {
    const diploma = await findActive(diplomaId);
    await requireCourseReader(user, diploma);
    const {
      videos,
      exams: examRows,
      items,
      resultByExam,
      watching,
      progressPercent,
    } = await loadSequence(diploma, user.id);
    // a linked procedure may have been watched to the end on its own page since the last visit
    if (progressPercent >= 100) await recordCompletion(db, diploma, user.id);
    const videoIds = videos.map((video) => video.id);
    const [chapters, files, linked] = await Promise.all([
      videoIds.length
        ? db
            .select()
            .from(diplomaVideoChapters)
            .where(inArray(diplomaVideoChapters.videoId, videoIds))
            .orderBy(asc(diplomaVideoChapters.position))
        : [],
      videoIds.length
        ? db
            .select()
            .from(diplomaVideoFiles)
            .where(inArray(diplomaVideoFiles.videoId, videoIds))
            .orderBy(asc(diplomaVideoFiles.position))
        : [],
      db
        .select({ id: procedures.id, name: procedures.name, detail: procedures.detail, guidePdf: procedures.guidePdf })
        .from(procedures)
        .innerJoin(diplomaVideos, eq(diplomaVideos.procedureId, procedures.id))
        .where(eq(diplomaVideos.diplomaId, diplomaId)),
    ]);
    const examIds = examRows.map((exam) => exam.id);
    const questionCounts = examIds.length
      ? await db
          .select({ examId: examQuestions.examId, value: count() })
          .from(examQuestions)
          .where(inArray(examQuestions.examId, examIds))
          .groupBy(examQuestions.examId)
      : [];
    const answeredCounts = examIds.length
      ? await db
          .select({ examId: examQuestions.examId, value: count() })
          .from(examAnswers)
          .innerJoin(examQuestions, eq(examQuestions.id, examAnswers.questionId))
          .where(and(eq(examAnswers.userId, user.id), inArray(examQuestions.examId, examIds)))
          .groupBy(examQuestions.examId)
      : [];
    const ladderByVideo = new Map(
      await Promise.all(
        videos.map(async (video) => [video.id, video.video ? await deps.ladders?.ready(video.video) : null] as const),
      ),
    );
    const courseItems: CourseItem[] = items.map((item) => {
      if (item.type === 'video') {
        const video = videos.find((each) => each.id === item.id)!;
        const procedure = linked.find((each) => each.id === video.procedureId);
        const own = files.filter((file) => file.videoId === video.id);
        const link = (file: (typeof own)[number]) => ({
          title: file.title,
          url: item.enabled ? (mediaUrl(file.file) ?? '') : '',
        });
        return {
          type: 'video',
          id: video.id,
          title: procedure?.name ?? video.title ?? '',
          description: procedure?.detail ?? video.description ?? '',
          enabled: item.enabled,
          completed: item.completed,
          completedBy: watching.get(video.id)!.completedBy,
          watchedPercent: watching.get(video.id)!.watchedPercent,
          videoUrl: item.enabled && !procedure ? mediaUrl(video.video) : null,
          hlsUrl: item.enabled && !procedure ? (ladderByVideo.get(video.id)?.hlsUrl ?? null) : null,
          posterUrl: item.enabled && !procedure ? (ladderByVideo.get(video.id)?.posterUrl ?? null) : null,
          procedureId: procedure?.id ?? null,
          guidePdfUrl: item.enabled && procedure ? mediaUrl(procedure.guidePdf) : null,
          chapters: chapters
            .filter((chapter) => chapter.videoId === video.id)
            .map((chapter) => ({ name: chapter.name, timeSeconds: chapter.timeSeconds })),
          pdfs: item.enabled ? own.filter((file) => file.kind === 'pdf').map(link) : [],
          images: item.enabled ? own.filter((file) => file.kind === 'image').map(link) : [],
        };
      }
      const exam = examRows.find((each) => each.id === item.id)!;
      const result = resultByExam.get(exam.id);
      return {
        type: 'exam',
        id: exam.id,
        title: exam.title,
        enabled: item.enabled,
        completed: item.completed,
        passed: item.passed,
        status: examStatus({
          answered: answeredCounts.find((row) => row.examId === exam.id)?.value ?? 0,
          completed: item.completed,
          passed: item.passed,
        }),
        scorePercent: result?.scorePercent ?? null,
        questionCount: questionCounts.find((row) => row.examId === exam.id)?.value ?? 0,
      };
    });
    const [enrolment] = await db
      .select({ completedAt: diplomaUsers.completedAt })
      .from(diplomaUsers)
      .where(and(eq(diplomaUsers.diplomaId, diplomaId), eq(diplomaUsers.userId, user.id)));
    const [certificate] = await db
      .select()
      .from(certificates)
      .where(and(eq(certificates.diplomaId, diplomaId), eq(certificates.userId, user.id)));
    return {
      id: diploma.id,
      title: diploma.title,
      descriptionHtml: diploma.descriptionHtml,
      isExternal: diploma.isExternal,
      passThresholdPercent: diploma.passThresholdPercent,
      progressPercent,
      completedAt: enrolment?.completedAt?.toISOString() ?? null,
      hasCertificateImage: diploma.certificateImage !== null,
      certificate: certificate
        ? {
            id: certificate.id,
            diplomaId: certificate.diplomaId,
            diplomaTitle: certificate.diplomaTitle,
            folio: formatFolio(certificate.folio),
            verificationCode: certificate.verificationCode,
            issuedAt: certificate.issuedAt.toISOString(),
            isRevoked: certificate.revokedAt !== null,
          }
        : null,
      items: courseItems,
    };
  }

  /**
   * 'Marcar como completado': only for a video with no file to watch. A video with one is completed by
   * watching it (savePosition); External diplomas open a video only after the item before it.
   */
  async function completeVideo(
    user: UserRow,
    diplomaId: string,
    videoId: string,
  ): Promise<{ progressPercent: number }> {
    const diploma = await findActive(diplomaId);
    await requireMember(user, diplomaId);
    const { items, watching } = await loadSequence(diploma, user.id);
    requireEnabled(items, 'video', videoId);
    if (watching.get(videoId)!.completedBy === 'watching') throw new AppError('VIDEO_NOT_WATCHED');
    await db.insert(diplomaVideoCompletions).values({ videoId, userId: user.id }).onConflictDoNothing();
    return { progressPercent: await recordCompletion(db, diploma, user.id) };
  }

  /**
   * Where a member is in a diploma's own video, from the device holding the viewing token: adds the time
   * played to their watched time, and completes the video once it is watched.
   */
  async function savePosition(
    user: UserRow,
    diplomaId: string,
    videoId: string,
    input: SavePosition,
  ): Promise<{ watchedPercent: number; completed: boolean; progressPercent: number }> {
    const diploma = await findActive(diplomaId);
    await requireMember(user, diplomaId);
    const { items, videos } = await loadSequence(diploma, user.id);
    const item = requireEnabled(items, 'video', videoId);
    const video = videos.find((each) => each.id === videoId)!;
    if (video.procedureId || !video.video) throw new AppError('NOT_FOUND');
    if ((await deps.viewing.current(user.id)) !== input.viewingToken) throw new AppError('VIEWING_TOKEN_REPLACED');
    const watched = await watchedTime.recordSave(
      user.id,
      { diplomaVideoId: videoId },
      {
        videoKey: video.video,
        positionSeconds: input.positionSeconds,
        durationSeconds: input.durationSeconds,
        viewingToken: input.viewingToken,
        startsSpan: input.startsSpan ?? false,
      },
    );
    if (watched.isWatched && !item.completed) {
      await db.insert(diplomaVideoCompletions).values({ videoId, userId: user.id }).onConflictDoNothing();
      return {
        watchedPercent: watched.watchedPercent,
        completed: true,
        progressPercent: await recordCompletion(db, diploma, user.id),
      };
    }
    return {
      watchedPercent: watched.watchedPercent,
      completed: item.completed || watched.isWatched,
      progressPercent: (await loadSequence(diploma, user.id)).progressPercent,
    };
  }

  /** Certificates and the statistics read completion through here. */
  async function progressOf(
    diplomaId: string,
    userId: string,
  ): Promise<{ progressPercent: number; completedAt: Date | null }> {
    const [diploma] = await db.select().from(diplomas).where(eq(diplomas.id, diplomaId));
    if (!diploma) throw new AppError('NOT_FOUND');
    const { progressPercent } = await loadSequence(diploma, userId);
    const [enrolment] = await db
      .select({ completedAt: diplomaUsers.completedAt })
      .from(diplomaUsers)
      .where(and(eq(diplomaUsers.diplomaId, diplomaId), eq(diplomaUsers.userId, userId)));
    return { progressPercent, completedAt: enrolment?.completedAt ?? null };
  }

  /**
   * What continuing-education credit rests on: every active video with a file watched by the watched rule (time
   * really played, 90 %), every active exam passed; videos without a file have nothing to watch and do not count.
   */
  async function attendanceOf(diplomaId: string, userId: string) {
    const diploma = await findActive(diplomaId);
    const { videos, exams: examRows, resultByExam, watching, progressPercent } = await loadSequence(diploma, userId);
    if (progressPercent >= 100) await recordCompletion(db, diploma, userId);
    const linkedIds = videos.flatMap((video) => (video.procedureId ? [video.procedureId] : []));
    const names = linkedIds.length
      ? await db
          .select({ id: procedures.id, name: procedures.name })
          .from(procedures)
          .where(inArray(procedures.id, linkedIds))
      : [];
    const counted = videos
      .filter((video) => video.isActive && watching.get(video.id)!.completedBy === 'watching')
      .map((video) => ({
        title: names.find((each) => each.id === video.procedureId)?.name ?? video.title ?? '',
        watchedPercent: watching.get(video.id)!.watchedPercent,
        isWatched: watching.get(video.id)!.isWatched,
      }));
    const examResults = examRows
      .filter((exam) => exam.isActive)
      .map((exam) => ({
        title: exam.title,
        scorePercent: resultByExam.get(exam.id)?.scorePercent ?? null,
        passed: resultByExam.get(exam.id)?.passed ?? false,
      }));
    const [enrolment] = await db
      .select({ beganAt: diplomaUsers.beganAt, completedAt: diplomaUsers.completedAt })
      .from(diplomaUsers)
      .where(and(eq(diplomaUsers.diplomaId, diplomaId), eq(diplomaUsers.userId, userId)));
    return {
      diploma,
      beganAt: enrolment?.beganAt ?? null,
      videos: counted,
      exams: examResults,
      isComplete:
        enrolment !== undefined &&
        progressPercent >= 100 &&
        counted.every((video) => video.isWatched) &&
        examResults.every((exam) => exam.passed),
    };
  }

  /** Adds a member (purchase or assignment); idempotent, the first start timestamp stays. */
  async function enroll(diplomaId: string, userId: string, reader: Reader = db): Promise<boolean> {
    const inserted = await reader
      .insert(diplomaUsers)
      .values({ diplomaId, userId })
      .onConflictDoNothing()
      .returning({ userId: diplomaUsers.userId });
    return inserted.length > 0;
  }

  return {
    canAccessContent,
    isEnrolled,
    findActive,
    listForMember,
    salesPage,
    course,
    completeVideo,
    savePosition,
    ...memberExams,
    progressOf,
    attendanceOf,
    enroll,
  };
}

export type DiplomasService = ReturnType<typeof createDiplomasService>;
