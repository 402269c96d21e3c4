import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { boundedCache } from '#server/services/bounded-cache.ts';
import type { Db } from '#server/db/client.ts';
import { procedureCaptions, procedures } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { canWatchFullProcedure } from '#shared/catalog/catalog.rules.ts';
import { hasPremiumAccess } from '#shared/accounts/accounts.rules.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import type { ClassroomsService } from '#server/features/classrooms/classrooms.service.ts';
import type { DiplomasService } from '#server/features/diplomas/diplomas.service.ts';
import type { ViewingService } from '#server/features/viewing/viewing.service.ts';
import { accessChangedChannel, everyAccount } from '#server/features/accounts/devices.service.ts';
import type { Database } from '#server/db/client.ts';
import type { RenditionsService } from '#server/features/renditions/renditions.service.ts';
import { uuidPattern } from '#shared/uuid.ts';

export type MediaVisibility = 'public' | 'private';

/** What a visitor may do with one file: the single-device check is the viewing service's, dropped by NOTIFY on takeover. */
type Grant = {
  visibility: MediaVisibility;
  singleDeviceUserId: string | null;
  userId?: string;
  /** When the right it rests on ends by itself (a plan's termination date, an aula's expiry), in epoch ms. */
  until?: number;
};

// a video plays as dozens of range requests: decide once per visitor and file, for a short while
const grantTtlMs = 30_000;

const publicFolders = new Set(['events', 'landing_page', 'organizations', 'bulk_email_imgs', 'newsletter']);

export function createMediaService(deps: {
  db: Db;
  classrooms: ClassroomsService;
  diplomas: DiplomasService;
  viewing: ViewingService;
  /** Maps an HLS ladder file to its source video, whose rule it follows. */
  renditions?: Pick<RenditionsService, 'sourceOf'>;
  listen?: Database['listen'];
}) {
  const { db, classrooms, diplomas, viewing } = deps;
  // the cache keys holding each account's grants, so a change of that account's rights drops only those
  const keysOfAccount = new Map<string, Set<string>>();
  const grants = boundedCache<string, Grant>({
    entries: 20_000,
    ttl: grantTtlMs,
    onRemove: (grant, cacheKey) => {
      const keys = grant.userId ? keysOfAccount.get(grant.userId) : undefined;
      keys?.delete(cacheKey);
      if (keys?.size === 0) keysOfAccount.delete(grant.userId!);
    },
  });
  const remember = (cacheKey: string, grant: Grant) => {
    const ttl = Math.min(grantTtlMs, (grant.until ?? Infinity) - Date.now());
    if (ttl <= 0) return;
    grants.set(cacheKey, grant, { ttl });
    if (!grant.userId) return;
    let keys = keysOfAccount.get(grant.userId);
    if (!keys) keysOfAccount.set(grant.userId, (keys = new Set()));
    keys.add(cacheKey);
  };
  // a grant decided while a change arrived is served once but not remembered: it may predate the change
  let changes = 0;
  const forgetAccount = (userId: string) => {
    changes += 1;
    if (userId === everyAccount) {
      grants.clear();
      keysOfAccount.clear();
      return;
    }
    for (const cacheKey of [...(keysOfAccount.get(userId) ?? [])]) grants.delete(cacheKey);
    keysOfAccount.delete(userId);
  };
  // triggers announce sign-outs, plan and list changes on every instance; without LISTEN (database down at start)
  // grants still expire after grantTtlMs; never an unhandled rejection
  deps.listen?.(accessChangedChannel, forgetAccount).catch(() => {});
  const publicGrant: Grant = { visibility: 'public', singleDeviceUserId: null };
  const privateGrant: Grant = { visibility: 'private', singleDeviceUserId: null };

  /** Decides, per stored file, whether this visitor may receive it; throws 401/403/404 otherwise. */
  async function decide(key: string, user: UserRow | null): Promise<Grant> {
    const [folder, id, ...rest] = key.split('/');
    if (!folder || !id) throw new AppError('NOT_FOUND');
    if (publicFolders.has(folder)) return publicGrant;
    if (!uuidPattern.test(id)) throw new AppError('NOT_FOUND');

    if (folder === 'hls') {
      // hls/<rendition>/<version>/…: only the ladder marked ready is served, under its source video's rule
      const version = rest[0];
      const source = version && rest.length > 1 ? await deps.renditions?.sourceOf(id, version) : null;
      if (!source) throw new AppError('NOT_FOUND');
      const grant = await decide(source, user);
      // the poster is a still image, shown before the viewing token is taken: access rules only
      return rest.length === 2 && rest[1] === 'poster.jpg' ? { ...grant, singleDeviceUserId: null } : grant;
    }

    if (folder === 'procedures') {
      const [procedure] = await db.select().from(procedures).where(eq(procedures.id, id));
      if (!procedure) throw new AppError('NOT_FOUND');
      if (key === procedure.previewImage || key === procedure.demoVideo) return publicGrant;
      if (key !== procedure.fullVideo && key !== procedure.guidePdf) {
        // subtitles follow their own video's rule: the demo's are public, the full video's are not
        const [caption] = await db
          .select({ video: procedureCaptions.video })
          .from(procedureCaptions)
          .where(and(eq(procedureCaptions.procedureId, id), eq(procedureCaptions.fileKey, key)));
        if (!caption) throw new AppError('NOT_FOUND');
        if (caption.video === 'demo') return publicGrant;
      }
      if (!user) throw new AppError('UNAUTHENTICATED');
      const premium = hasPremiumAccess(user);
      const classroomUntil =
        procedure.type === 'Premium' && !premium ? await classrooms.procedureOpenUntil(user.id, id) : null;
      const allowed = canWatchFullProcedure(
        { isLoggedIn: true, hasPremiumAccess: premium, hasClassroomAccess: classroomUntil !== null },
        procedure.type,
      );
      if (!allowed) throw new AppError('FORBIDDEN');
      // a Premium that ends on a date, or an aula that expires, is not served from the cache past that moment
      const until =
        procedure.type !== 'Premium'
          ? undefined
          : premium
            ? user.terminationDate && user.type !== 'Premium' && user.type !== 'Admin'
              ? new Date(user.terminationDate).getTime()
              : undefined
            : classroomUntil!.getTime();
      // single-device rule: the full video plays only on the device holding the account's viewing token
      return { visibility: 'private', singleDeviceUserId: key === procedure.fullVideo ? user.id : null, until };
    }

    if (folder === 'aulas') {
      if (!user) throw new AppError('UNAUTHENTICATED');
      return privateGrant;
    }

    if (folder === 'diplomados') {
      // the preview image and PDF advertise the diploma to anyone
      if (rest[0] === 'Preview-Image' || rest[0] === 'Preview-pdf') return publicGrant;
      if (!user) throw new AppError('UNAUTHENTICATED');
      if (!(await diplomas.canAccessContent(user, id))) throw new AppError('FORBIDDEN');
      return privateGrant;
    }

    throw new AppError('NOT_FOUND');
  }

  function grantCacheKey(key: string, cookie: string | undefined): string {
    // every playlist and segment of one ladder shares one grant (the poster has its own)
    const grantKey =
      key.startsWith('hls/') && !key.endsWith('/poster.jpg') ? key.split('/').slice(0, 3).join('/') : key;
    return `${cookie ? createHash('sha256').update(cookie).digest('base64url') : ''} ${grantKey}`;
  }

  /**
   * authorize()'s answer when everything it needs is remembered (the grant for this cookie and file and, for a full
   * video, the account's current viewing token): at once, without a query. undefined for anything else, refusals
   * included, which only authorize() gives.
   */
  function rememberedVisibility(
    key: string,
    cookie: string | undefined,
    viewingToken: string | undefined,
  ): MediaVisibility | undefined {
    const grant = grants.get(grantCacheKey(key, cookie));
    if (!grant) return undefined;
    if (!grant.singleDeviceUserId) return grant.visibility;
    return viewingToken !== undefined && viewing.rememberedCurrent(grant.singleDeviceUserId, viewingToken) === true
      ? grant.visibility
      : undefined;
  }

  /**
   * May this request receive the file? The permission is remembered briefly per session cookie and file,
   * and the viewing token is remembered until a takeover's NOTIFY: a range request usually costs no query.
   */
  async function authorize(
    key: string,
    visitor: {
      cookie: string | undefined;
      viewingToken: string | undefined;
      currentUser: () => Promise<UserRow | null>;
    },
  ): Promise<MediaVisibility> {
    const cacheKey = grantCacheKey(key, visitor.cookie);
    let grant = grants.get(cacheKey);
    if (!grant) {
      const before = changes;
      const user = await visitor.currentUser();
      grant = await decide(key, user);
      if (changes === before) remember(cacheKey, user ? { ...grant, userId: user.id } : grant);
    }
    if (
      grant.singleDeviceUserId &&
      (!visitor.viewingToken || !(await viewing.isCurrent(grant.singleDeviceUserId, visitor.viewingToken)))
    ) {
      throw new AppError('VIEWING_TOKEN_REPLACED');
    }
    return grant.visibility;
  }

  return { authorize, rememberedVisibility };
}

export type MediaService = ReturnType<typeof createMediaService>;
