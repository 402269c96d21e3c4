import { and, asc, count, desc, eq, ilike, isNull, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { containsPattern } from '#server/db/search-sql.ts';
import {
  diplomaUsers,
  diplomaVideoFiles,
  diplomaVideos,
  diplomas,
  exams,
  organizations,
  procedures,
  users,
} from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { messages } from '#shared/messages.ts';
import { uploadFolder, uploadTargets } from '#shared/uploads/uploads.rules.ts';
import {
  centsToCost,
  costToCents,
  type AdminDiploma,
  type AdminDiplomaRow,
  type DiplomaInput,
  type DiplomaAdminCandidates,
  type DiplomaOptions,
  type DiplomaActivationWarnings,
} from '#shared/diplomas/diplomas.admin.schemas.ts';
import type { UploadsService } from '#server/features/uploads/uploads.service.ts';
import { hasVisibleText, sanitizeRichText } from '#server/services/rich-text.ts';
import { createDiplomaVideosAdmin } from './diploma-videos.admin.service.ts';
import { createDiplomaExamsAdmin } from './diploma-exams.admin.service.ts';
import { createDiplomaMembersAdmin } from './diploma-members.admin.service.ts';
import { createDiplomaStatisticsAdmin } from './diploma-statistics.admin.service.ts';

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

  /** What the form's selectors offer: organizations and catalogue surgeries. */
  async function options(): Promise<DiplomaOptions> {
    const [organizationRows, procedureRows] = await Promise.all([
      db
        .select({ id: organizations.id, title: organizations.title })
        .from(organizations)
        .orderBy(asc(organizations.title)),
      db.select({ id: procedures.id, name: procedures.name }).from(procedures).orderBy(asc(procedures.name)),
    ]);
    return { organizations: organizationRows, procedures: procedureRows };
  }

  /**
   * Possible administrators whose e-mail contains `q`, 50 at most: the form searches as the Admin types, since a
   * site of 100,000 users sent them all (6 MB) each time the form opened.
   */
  async function adminCandidates(q: string | undefined): Promise<DiplomaAdminCandidates> {
    const people = await db
      .select({ email: users.email, name: users.name })
      .from(users)
      .where(
        and(
          eq(users.isDisabled, false),
          isNull(users.anonymizedAt),
          q ? ilike(users.email, containsPattern(q)) : undefined,
        ),
      )
      .orderBy(asc(users.email))
      .limit(50);
    return { people };
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

  const videos = createDiplomaVideosAdmin({ db, uploads, mustFind });
  const examsAdmin = createDiplomaExamsAdmin({ db, mustFind, listVideos: videos.listVideos });
  const members = createDiplomaMembersAdmin({ db, mustFind });
  const stats = createDiplomaStatisticsAdmin({
    db,
    mustFind,
    listVideos: videos.listVideos,
    listExams: examsAdmin.listExams,
  });

  return {
    list,
    options,
    adminCandidates,
    get,
    save,
    setActive,
    activationWarnings,
    remove,
    ...videos,
    ...examsAdmin,
    ...members,
    ...stats,
  };
}

export type DiplomasAdminService = ReturnType<typeof createDiplomasAdminService>;
