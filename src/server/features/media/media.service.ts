import { eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { procedures } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { canWatchFullProcedure } from '#shared/catalog/catalog.rules.ts';
import { hasPremiumAccess } from '#shared/accounts/accounts.rules.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import type { ClassroomsService } from '#server/features/classrooms/classrooms.service.ts';
import type { DiplomasService } from '#server/features/diplomas/diplomas.service.ts';
import type { ViewingService } from '#server/features/viewing/viewing.service.ts';

export type MediaVisibility = 'public' | 'private';

const publicFolders = new Set(['events', 'landing_page', 'organizations', 'bulk_email_imgs', 'newsletter']);
const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createMediaService(deps: {
  db: Db;
  classrooms: ClassroomsService;
  diplomas: DiplomasService;
  viewing: ViewingService;
}) {
  const { db, classrooms, diplomas, viewing } = deps;

  /** Decides, per stored file, whether this visitor may receive it; throws 401/403/404 otherwise. */
  async function authorize(key: string, user: UserRow | null, viewingToken?: string): Promise<MediaVisibility> {
    const [folder, id, ...rest] = key.split('/');
    if (!folder || !id) throw new AppError('NOT_FOUND');
    if (publicFolders.has(folder)) return 'public';
    if (!uuidPattern.test(id)) throw new AppError('NOT_FOUND');

    if (folder === 'procedures') {
      const [procedure] = await db.select().from(procedures).where(eq(procedures.id, id));
      if (!procedure) throw new AppError('NOT_FOUND');
      if (key === procedure.previewImage || key === procedure.demoVideo) return 'public';
      if (key !== procedure.fullVideo && key !== procedure.guidePdf) throw new AppError('NOT_FOUND');
      if (!user) throw new AppError('UNAUTHENTICATED');
      const allowed = canWatchFullProcedure(
        {
          isLoggedIn: true,
          hasPremiumAccess: hasPremiumAccess(user),
          hasClassroomAccess: procedure.type === 'Premium' && (await classrooms.opensProcedureFor(user.id, id)),
        },
        procedure.type,
      );
      if (!allowed) throw new AppError('FORBIDDEN');
      // single-device rule: the full video plays only on the device holding the account's viewing token
      if (key === procedure.fullVideo && (!viewingToken || viewingToken !== (await viewing.current(user.id)))) {
        throw new AppError('VIEWING_TOKEN_REPLACED');
      }
      return 'private';
    }

    if (folder === 'aulas') {
      if (!user) throw new AppError('UNAUTHENTICATED');
      return 'private';
    }

    if (folder === 'diplomados') {
      // the preview image and PDF advertise the diploma to anyone
      if (rest[0] === 'Preview-Image' || rest[0] === 'Preview-pdf') return 'public';
      if (!user) throw new AppError('UNAUTHENTICATED');
      if (!(await diplomas.canAccessContent(user, id))) throw new AppError('FORBIDDEN');
      return 'private';
    }

    throw new AppError('NOT_FOUND');
  }

  return { authorize };
}

export type MediaService = ReturnType<typeof createMediaService>;
