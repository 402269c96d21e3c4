import { createHash, randomUUID } from 'node:crypto';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
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
  examAttempts,
  examQuestions,
  examResults,
  exams,
  organizations,
  procedures,
} from '#server/db/schema/index.ts';
import { hasPremiumAccess, isAdmin } from '#shared/accounts/accounts.rules.ts';
import { AppError } from '#shared/errors.ts';
import { mediaUrl } from '#server/services/media-url.ts';
import {
  buildSequence,
  diplomaProgressPercent,
  examScorePercent,
  examStatus,
  formatFolio,
  isPassingScore,
  unanswered,
  type SequenceItem,
} from '#shared/diplomas/diplomas.rules.ts';
import type {
  Course,
  CourseItem,
  DiplomaSalesPage,
  ExamView,
  MemberDiplomaCard,
  SubmitExamInput,
} from '#shared/diplomas/diplomas.schemas.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import type { AnalyticsService } from '#server/features/analytics/analytics.service.ts';
import type { ViewingService } from '#server/features/viewing/viewing.service.ts';
import type { WatchedTimeService } from '#server/features/watching/watched-time.service.ts';
import type { SavePosition } from '#shared/watching/watching.schemas.ts';

type DiplomaRow = typeof diplomas.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Reader = Db | Tx;

export function createDiplomasService(deps: {
  db: Db;
  analytics?: AnalyticsService;
  ladders?: Pick<RenditionsService, 'ready'>;
  watchedTime: WatchedTimeService;
  viewing: Pick<ViewingService, 'current'>;
}) {
  const { db, watchedTime } = deps;

  /** Course material: Admins, the diploma's administrator, and enrolled Premium members. */
  async function canAccessContent(user: UserRow, diplomaId: string): Promise<boolean> {
    if (isAdmin(user)) return true;
    const [diploma] = await db
      .select({ adminUserId: diplomas.adminUserId })
      .from(diplomas)
      .where(eq(diplomas.id, diplomaId));
    if (!diploma) return false;
    if (diploma.adminUserId === user.id) return true;
    if (!hasPremiumAccess(user)) return false;
    return isEnrolled(user.id, diplomaId);
  }

  async function isEnrolled(userId: string, diplomaId: string, reader: Reader = db): Promise<boolean> {
    const rows = await reader
      .select({ userId: diplomaUsers.userId })
      .from(diplomaUsers)
      .where(and(eq(diplomaUsers.diplomaId, diplomaId), eq(diplomaUsers.userId, userId)));
    return rows.length > 0;
  }

  /** An active diploma, or 404 (the web sends the member back to /mis-diplomados). */
  async function findActive(
    diplomaId: string,
    reader: Reader = db,
  ): Promise<DiplomaRow & { organizationName: string }> {
    const [row] = await reader
      .select({ diploma: diplomas, organizationName: organizations.title })
      .from(diplomas)
      .leftJoin(organizations, eq(organizations.id, diplomas.organizationId))
      .where(eq(diplomas.id, diplomaId));
    if (!row || !row.diploma.isActive) throw new AppError('NOT_FOUND');
    return { ...row.diploma, organizationName: row.diploma.isExternal ? (row.organizationName ?? '') : 'CxVet' };
  }

  /** Reading a course: its members, its administrator and Admins. */
  async function requireCourseReader(user: UserRow, diploma: DiplomaRow): Promise<void> {
    if (isAdmin(user) || diploma.adminUserId === user.id) return;
    if (!(await isEnrolled(user.id, diploma.id))) throw new AppError('FORBIDDEN');
  }

  /** Progress is recorded only for the diploma's own members. */
  async function requireMember(user: UserRow, diplomaId: string, reader: Reader = db): Promise<void> {
    if (!(await isEnrolled(user.id, diplomaId, reader))) throw new AppError('FORBIDDEN');
  }

  /** Everything that decides locking and progress for one member, in the spec's order. */
  async function loadSequence(diploma: DiplomaRow, userId: string, reader: Reader = db) {
    const videos = await reader
      .select()
      .from(diplomaVideos)
      .where(eq(diplomaVideos.diplomaId, diploma.id))
      .orderBy(asc(diplomaVideos.position));
    const examRows = await reader
      .select()
      .from(exams)
      .where(eq(exams.diplomaId, diploma.id))
      .orderBy(asc(exams.afterVideoPosition), asc(exams.createdAt));
    const videoIds = videos.map((video) => video.id);
    const examIds = examRows.map((exam) => exam.id);
    const completions = videoIds.length
      ? await reader
          .select({ videoId: diplomaVideoCompletions.videoId })
          .from(diplomaVideoCompletions)
          .where(and(eq(diplomaVideoCompletions.userId, userId), inArray(diplomaVideoCompletions.videoId, videoIds)))
      : [];
    const results = examIds.length
      ? await reader
          .select()
          .from(examResults)
          .where(and(eq(examResults.userId, userId), inArray(examResults.examId, examIds)))
      : [];
    const linkedIds = videos.flatMap((video) => (video.procedureId ? [video.procedureId] : []));
    const linked = linkedIds.length
      ? await reader
          .select({ id: procedures.id, fullVideo: procedures.fullVideo })
          .from(procedures)
          .where(inArray(procedures.id, linkedIds))
      : [];
    const [ownWatched, procedureWatched] = await Promise.all([
      watchedTime.ofDiplomaVideos(userId, videoIds, reader),
      watchedTime.ofProcedures(userId, linkedIds, reader),
    ]);
    /** How each video is completed (watching its file, or the button when it has none) and how much was watched. */
    const watching = new Map(
      videos.map((video) => {
        const procedure = linked.find((each) => each.id === video.procedureId);
        const hasFile = procedure ? Boolean(procedure.fullVideo) : Boolean(video.video);
        const state = procedure ? procedureWatched.get(procedure.id) : ownWatched.get(video.id);
        return [
          video.id,
          {
            completedBy: hasFile ? ('watching' as const) : ('marking' as const),
            watchedPercent: state?.watchedPercent ?? 0,
            isWatched: state?.isWatched ?? false,
          },
        ];
      }),
    );
    // a linked procedure watched on its own page counts here too
    const completed = new Set([
      ...completions.map((row) => row.videoId),
      ...videos.filter((video) => video.procedureId && watching.get(video.id)!.isWatched).map((video) => video.id),
    ]);
    const resultByExam = new Map(results.map((row) => [row.examId, row]));
    const items = buildSequence(
      diploma,
      videos.map((video) => ({
        id: video.id,
        position: video.position,
        isActive: video.isActive,
        completed: completed.has(video.id),
      })),
      examRows.map((exam) => ({
        id: exam.id,
        afterVideoPosition: exam.afterVideoPosition,
        isActive: exam.isActive,
        completed: resultByExam.has(exam.id),
        passed: resultByExam.get(exam.id)?.passed ?? false,
      })),
    );
    return {
      videos,
      exams: examRows,
      items,
      resultByExam,
      watching,
      progressPercent: diplomaProgressPercent(diploma, items),
    };
  }

  function requireEnabled(items: SequenceItem[], type: SequenceItem['type'], id: string): SequenceItem {
    const item = items.find((each) => each.type === type && each.id === id);
    if (!item) throw new AppError('NOT_FOUND');
    if (!item.enabled) throw new AppError('FORBIDDEN');
    return item;
  }

  /** Reaching 100% records the completion timestamp once. */
  async function recordCompletion(tx: Reader, diploma: DiplomaRow, userId: string): Promise<number> {
    const { progressPercent } = await loadSequence(diploma, userId, tx);
    if (progressPercent >= 100) {
      const [enrolment] = await tx
        .select({ completedAt: diplomaUsers.completedAt })
        .from(diplomaUsers)
        .where(and(eq(diplomaUsers.diplomaId, diploma.id), eq(diplomaUsers.userId, userId)));
      if (enrolment && !enrolment.completedAt) {
        await tx
          .update(diplomaUsers)
          .set({ completedAt: new Date() })
          .where(and(eq(diplomaUsers.diplomaId, diploma.id), eq(diplomaUsers.userId, userId)));
      }
    }
    return progressPercent;
  }

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

  async function examQuestionsOf(examId: string, reader: Reader = db) {
    return reader
      .select()
      .from(examQuestions)
      .where(eq(examQuestions.examId, examId))
      .orderBy(asc(examQuestions.position));
  }

  /**
   * The member's questions in the order they see them, each with the original index of every shown answer:
   * the first attempt keeps the authored order, a retake shuffles both by the seed it drew.
   */
  async function shownQuestionsOf(userId: string, examId: string, reader: Reader = db) {
    const questions = await examQuestionsOf(examId, reader);
    const [attempt] = await reader
      .select({ seed: examAttempts.shuffleSeed })
      .from(examAttempts)
      .where(and(eq(examAttempts.examId, examId), eq(examAttempts.userId, userId)));
    const seed = attempt?.seed;
    const rank = (key: string) => createHash('sha256').update(`${seed}:${key}`).digest('hex');
    const byRank = <T>(items: T[], keyOf: (item: T) => string) =>
      seed === undefined
        ? items
        : items
            .map((item) => ({ item, key: rank(keyOf(item)) }))
            .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
            .map(({ item }) => item);
    return byRank(questions, (question) => question.id).map((question) => ({
      ...question,
      answerOrder: byRank(
        question.answers.map((_, index) => index),
        (index) => `${question.id}:${index}`,
      ),
    }));
  }

  /** One exam for the member: saved answers while open; the score alone after a failed attempt; everything once passed. */
  async function exam(user: UserRow, diplomaId: string, examId: string): Promise<ExamView> {
    const diploma = await findActive(diplomaId);
    await requireMember(user, diplomaId);
    const { exams: examRows, items, resultByExam } = await loadSequence(diploma, user.id);
    requireEnabled(items, 'exam', examId);
    const examRow = examRows.find((each) => each.id === examId)!;
    const questions = await shownQuestionsOf(user.id, examId);
    const answers = questions.length
      ? await db
          .select()
          .from(examAnswers)
          .where(
            and(
              eq(examAnswers.userId, user.id),
              inArray(
                examAnswers.questionId,
                questions.map((question) => question.id),
              ),
            ),
          )
      : [];
    const result = resultByExam.get(examId) ?? null;
    const failed = result !== null && !result.passed;
    return {
      id: examRow.id,
      diplomaId,
      title: examRow.title,
      status: examStatus({ answered: answers.length, completed: result !== null, passed: result?.passed ?? false }),
      completed: result !== null,
      passed: result?.passed ?? false,
      scorePercent: result?.scorePercent ?? null,
      passThresholdPercent: diploma.passThresholdPercent,
      // per-question answers of a failed attempt would give the key away by elimination over retakes
      questions: failed
        ? []
        : questions.map((question) => {
            const saved = answers.find((answer) => answer.questionId === question.id)?.answer;
            return {
              id: question.id,
              question: question.question,
              answers: question.answerOrder.map((index) => question.answers[index]!),
              userAnswer: saved === undefined ? unanswered : question.answerOrder.indexOf(saved),
              correctAnswer: result?.passed ? question.answerOrder.indexOf(question.correctAnswer) : null,
            };
          }),
    };
  }

  /** Saves one answer while the exam is open; a completed exam is read-only. */
  async function saveAnswer(
    user: UserRow,
    diplomaId: string,
    examId: string,
    input: { questionId: string; answer: number },
  ) {
    const diploma = await findActive(diplomaId);
    await requireMember(user, diplomaId);
    const { items, resultByExam } = await loadSequence(diploma, user.id);
    requireEnabled(items, 'exam', examId);
    if (resultByExam.has(examId)) throw new AppError('CONFLICT');
    const question = (await shownQuestionsOf(user.id, examId)).find((each) => each.id === input.questionId);
    if (!question) throw new AppError('NOT_FOUND');
    const answer = question.answerOrder[input.answer];
    if (answer === undefined) throw new AppError('VALIDATION');
    await db
      .insert(examAnswers)
      .values({ questionId: question.id, userId: user.id, answer })
      .onConflictDoUpdate({
        target: [examAnswers.questionId, examAnswers.userId],
        set: { answer, answeredAt: new Date() },
      });
    return { ok: true as const };
  }

  /**
   * Saves every answer and grades once, in one transaction that holds the member's enrolment row:
   * concurrent submissions queue behind it and the later ones find the exam already completed.
   */
  async function submitExam(user: UserRow, diplomaId: string, examId: string, input: SubmitExamInput) {
    const diploma = await findActive(diplomaId);
    return db.transaction(async (tx) => {
      const locked = await tx
        .select({ userId: diplomaUsers.userId })
        .from(diplomaUsers)
        .where(and(eq(diplomaUsers.diplomaId, diplomaId), eq(diplomaUsers.userId, user.id)))
        .for('update');
      if (locked.length === 0) throw new AppError('FORBIDDEN');
      const { items, resultByExam } = await loadSequence(diploma, user.id, tx);
      requireEnabled(items, 'exam', examId);
      if (resultByExam.has(examId)) throw new AppError('CONFLICT');
      const questions = await shownQuestionsOf(user.id, examId, tx);
      if (questions.length === 0) throw new AppError('NOT_FOUND');
      const shown = new Map(input.answers.map((answer) => [answer.questionId, answer.answer]));
      const given = new Map<string, number>();
      const fields: Record<string, string> = {};
      for (const question of questions) {
        const answer = question.answerOrder[shown.get(question.id) ?? -1];
        if (answer === undefined) fields[question.id] = 'Responde esta pregunta.';
        else given.set(question.id, answer);
      }
      if (Object.keys(fields).length > 0) throw new AppError('VALIDATION', { fields });
      const now = new Date();
      await tx
        .insert(examAnswers)
        .values(
          questions.map((question) => ({
            questionId: question.id,
            userId: user.id,
            answer: given.get(question.id)!,
            answeredAt: now,
          })),
        )
        .onConflictDoUpdate({
          target: [examAnswers.questionId, examAnswers.userId],
          set: { answer: sqlExcludedAnswer, answeredAt: now },
        });
      const correct = questions.filter((question) => given.get(question.id) === question.correctAnswer).length;
      const scorePercent = examScorePercent(correct, questions.length);
      const passed = isPassingScore(scorePercent, diploma.passThresholdPercent);
      const inserted = await tx
        .insert(examResults)
        .values({
          examId,
          userId: user.id,
          scorePercent,
          correctCount: correct,
          questionCount: questions.length,
          passed,
          completedAt: now,
        })
        .onConflictDoNothing()
        .returning({ examId: examResults.examId });
      if (inserted.length === 0) throw new AppError('CONFLICT');
      const progressPercent = await recordCompletion(tx, diploma, user.id);
      return { scorePercent, passed, progressPercent };
    });
  }

  /** Spec 3 §4: retake resets every answer to -1 and clears completed and passed; a passed exam stays passed. */
  async function retakeExam(user: UserRow, diplomaId: string, examId: string) {
    const diploma = await findActive(diplomaId);
    return db.transaction(async (tx) => {
      const locked = await tx
        .select({ userId: diplomaUsers.userId })
        .from(diplomaUsers)
        .where(and(eq(diplomaUsers.diplomaId, diplomaId), eq(diplomaUsers.userId, user.id)))
        .for('update');
      if (locked.length === 0) throw new AppError('FORBIDDEN');
      const { items, resultByExam } = await loadSequence(diploma, user.id, tx);
      requireEnabled(items, 'exam', examId);
      const result = resultByExam.get(examId);
      if (!result || result.passed) throw new AppError('CONFLICT');
      const questionIds = (await examQuestionsOf(examId, tx)).map((question) => question.id);
      if (questionIds.length)
        await tx
          .delete(examAnswers)
          .where(and(eq(examAnswers.userId, user.id), inArray(examAnswers.questionId, questionIds)));
      await tx.delete(examResults).where(and(eq(examResults.examId, examId), eq(examResults.userId, user.id)));
      const seed = randomUUID();
      await tx
        .insert(examAttempts)
        .values({ examId, userId: user.id, shuffleSeed: seed })
        .onConflictDoUpdate({
          target: [examAttempts.examId, examAttempts.userId],
          set: { shuffleSeed: seed, createdAt: new Date() },
        });
      return { ok: true as const };
    });
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
    exam,
    saveAnswer,
    submitExam,
    retakeExam,
    progressOf,
    enroll,
  };
}

const sqlExcludedAnswer = sql`excluded.answer`;

export type DiplomasService = ReturnType<typeof createDiplomasService>;
