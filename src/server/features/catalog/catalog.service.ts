import type { RenditionsService } from '#server/features/renditions/renditions.service.ts';
import { and, asc, count, desc, eq, exists, inArray, sql, type SQL } from 'drizzle-orm';
import { foldForSearch } from '#shared/text.ts';
import { LRUCache } from 'lru-cache';
import type { Database, Db } from '#server/db/client.ts';
import { procedureCaptions, procedureChapters, procedureTags, procedures, tags } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { hasPremiumAccess } from '#shared/accounts/accounts.rules.ts';
import { canWatchFullProcedure } from '#shared/catalog/catalog.rules.ts';
import { captionLabels, captionLanguages } from '#shared/catalog/captions.rules.ts';
import {
  catalogPageSize,
  type CatalogPage,
  type CatalogQuery,
  type ProcedureCard,
  type ProcedureDetail,
  type Tag,
} from '#shared/catalog/catalog.schemas.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import type { ClassroomsService } from '#server/features/classrooms/classrooms.service.ts';
import type { AnalyticsService } from '#server/features/analytics/analytics.service.ts';
import type { CardMarks, MemberMarks, WatchMarksService } from '#server/features/watching/watch-marks.service.ts';
import { mediaUrl } from '#server/services/media-url.ts';
import { containsPattern } from '#server/db/search-sql.ts';
import { uuidPattern } from '#shared/uuid.ts';

type ProcedureRow = typeof procedures.$inferSelect;
/** Keeps the member's marks `load` reads with the request's verified session. */
type KeepMarks = (load: () => Promise<MemberMarks>) => Promise<MemberMarks>;

// guests all see the same pages: cache them briefly; any catalogue write clears the cache at once
const cacheTtlMs = 30_000;
const cachedGuestPages = 3;

export function createCatalogService(deps: {
  db: Db;
  classrooms: ClassroomsService;
  analytics: AnalyticsService;
  /** A member's 'Visto' and favourite marks on cards and the 'No vistos' filter (never consulted for guests). */
  marks: WatchMarksService;
  /** The HLS ladder of a video, once ready (else the page plays the original file). */
  ladders?: Pick<RenditionsService, 'ready'>;
  /** Subscribes to the database's catalog_changed notifications (sent by triggers on procedures, tags and their links). */
  listen?: Database['listen'];
}) {
  const { db, classrooms, analytics, marks } = deps;
  const guestPages = new LRUCache<string, CatalogPage>({ max: 500, ttl: cacheTtlMs });
  const totals = new LRUCache<string, number>({ max: 2000, ttl: cacheTtlMs });
  const guestSamples = new LRUCache<number, ProcedureCard[]>({ max: 4, ttl: cacheTtlMs });
  // entries computed from reads that started before a change must not land in the fresh cache
  let generation = 0;
  function invalidate() {
    generation += 1;
    guestPages.clear();
    totals.clear();
    guestSamples.clear();
  }
  // without LISTEN (database down at start) only this instance's own saves drop the cache; never an unhandled rejection
  deps.listen?.('catalog_changed', invalidate).catch(() => {});

  function searchCondition(q: string): SQL {
    return sql`${procedures.searchText} like ${containsPattern(foldForSearch(q))}`;
  }

  function filterConditions(user: UserRow | null, query: Omit<CatalogQuery, 'page'>): SQL | undefined {
    const conditions: SQL[] = [];
    if (user && query.unwatched) conditions.push(marks.notWatchedBy(user.id, procedures.id));
    if (query.q) conditions.push(searchCondition(query.q));
    if (query.species) conditions.push(eq(procedures.species, query.species));
    if (query.type) conditions.push(eq(procedures.type, query.type));
    if (query.tag) {
      conditions.push(
        exists(
          db
            .select({ one: sql`1` })
            .from(procedureTags)
            .where(and(eq(procedureTags.procedureId, procedures.id), eq(procedureTags.tagId, query.tag))),
        ),
      );
    }
    if (query.classroom) conditions.push(classrooms.holdsProcedure(query.classroom, procedures.id));
    return conditions.length > 0 ? and(...conditions) : undefined;
  }

  async function tagsByProcedure(procedureIds: string[]): Promise<Map<string, Tag[]>> {
    const result = new Map<string, Tag[]>();
    if (procedureIds.length === 0) return result;
    const rows = await db
      .select({ procedureId: procedureTags.procedureId, id: tags.id, name: tags.name })
      .from(procedureTags)
      .innerJoin(tags, eq(tags.id, procedureTags.tagId))
      .where(inArray(procedureTags.procedureId, procedureIds))
      .orderBy(asc(tags.name));
    for (const row of rows) {
      const list = result.get(row.procedureId) ?? [];
      list.push({ id: row.id, name: row.name });
      result.set(row.procedureId, list);
    }
    return result;
  }

  /** Which of these procedures the visitor may watch in full (one query for the aula part). */
  async function fullAccess(user: UserRow | null, rows: ProcedureRow[]): Promise<Set<string>> {
    const premiumIds = rows.filter((row) => row.type === 'Premium').map((row) => row.id);
    const opened =
      user && !hasPremiumAccess(user) ? await classrooms.proceduresOpenedFor(user.id, premiumIds) : new Set<string>();
    const viewer = { isLoggedIn: user !== null, hasPremiumAccess: hasPremiumAccess(user) };
    return new Set(
      rows
        .filter((row) => canWatchFullProcedure({ ...viewer, hasClassroomAccess: opened.has(row.id) }, row.type))
        .map((row) => row.id),
    );
  }

  /** The video a procedure page shows: the full one to whom may watch it, else the demo. */
  const shownVideo = (row: ProcedureRow, canWatch: boolean) => (canWatch ? row.fullVideo : row.demoVideo);

  function toCard(row: ProcedureRow, tagList: Tag[], canWatch: boolean, mark?: CardMarks): ProcedureCard {
    return {
      ...mark,
      id: row.id,
      name: row.name,
      detail: row.detail,
      type: row.type,
      species: row.species,
      previewUrl: mediaUrl(row.previewImage),
      tags: tagList,
      isLocked: !canWatch,
    };
  }

  async function toCards(user: UserRow | null, rows: ProcedureRow[]): Promise<ProcedureCard[]> {
    const ids = rows.map((row) => row.id);
    const [tagMap, allowed, markMap] = await Promise.all([
      tagsByProcedure(ids),
      fullAccess(user, rows),
      user ? marks.forCards(user.id, ids) : undefined,
    ]);
    return rows.map((row) => toCard(row, tagMap.get(row.id) ?? [], allowed.has(row.id), markMap?.get(row.id)));
  }

  /** The number of procedures a filter matches, counted once per filter while the catalogue is unchanged. */
  async function countMatching(
    user: UserRow | null,
    query: Omit<CatalogQuery, 'page'>,
    where: SQL | undefined,
  ): Promise<number> {
    const key = JSON.stringify([
      query.q ?? '',
      query.species ?? '',
      query.type ?? '',
      query.tag ?? '',
      query.classroom ?? '',
    ]);
    const personal = Boolean(user && query.unwatched);
    const known = personal ? undefined : totals.get(key);
    if (known !== undefined) return known;
    const started = generation;
    const [row] = await db.select({ total: count() }).from(procedures).where(where);
    const total = row?.total ?? 0;
    // aula membership changes do not notify the catalogue, and 'No vistos' is one member's: neither count is kept
    if (started === generation && !query.classroom && !personal) totals.set(key, total);
    return total;
  }

  async function loadPage(user: UserRow | null, query: CatalogQuery): Promise<CatalogPage> {
    const where = filterConditions(user, query);
    const [rows, total] = await Promise.all([
      db
        .select()
        .from(procedures)
        .where(where)
        .orderBy(desc(procedures.createdAt), asc(procedures.name))
        .limit(catalogPageSize)
        .offset((query.page - 1) * catalogPageSize),
      countMatching(user, query, where),
    ]);
    return { items: await toCards(user, rows), total, page: query.page, pageSize: catalogPageSize };
  }

  /**
   * One page of the catalogue, filtered and searched by the database (guests' first pages from a short cache).
   * `keepMarks`: keeps the member's marks with their verified session (accounts' keptWithSession).
   */
  async function list(user: UserRow | null, query: CatalogQuery, keepMarks?: KeepMarks): Promise<CatalogPage> {
    if (query.classroom || query.page > cachedGuestPages || (user && query.unwatched)) return loadPage(user, query);
    const page = await guestPage(query);
    return user ? forMember(user, page, keepMarks) : page;
  }

  /** A guest's page as a member sees it: unlocked by their plan or aulas, with their own marks. */
  async function forMember(user: UserRow, page: CatalogPage, keepMarks?: KeepMarks): Promise<CatalogPage> {
    const premiumIds = page.items.filter((card) => card.type === 'Premium').map((card) => card.id);
    const premium = hasPremiumAccess(user);
    const load = () => marks.allOf(user.id);
    const [opened, own] = await Promise.all([
      premium ? new Set<string>() : classrooms.proceduresOpenedFor(user.id, premiumIds),
      keepMarks ? keepMarks(load) : load(),
    ]);
    const viewer = { isLoggedIn: true, hasPremiumAccess: premium };
    return {
      ...page,
      items: page.items.map((card) => ({
        ...card,
        isWatched: own.watched.has(card.id),
        isFavorite: own.favorites.has(card.id),
        isLocked: !canWatchFullProcedure({ ...viewer, hasClassroomAccess: opened.has(card.id) }, card.type),
      })),
    };
  }

  /** One of the first pages as a guest sees it, from a short cache shared by guests and members. */
  async function guestPage(query: CatalogQuery): Promise<CatalogPage> {
    const key = JSON.stringify([query.q ?? '', query.species ?? '', query.type ?? '', query.tag ?? '', query.page]);
    const cached = guestPages.get(key);
    if (cached) return cached;
    const started = generation;
    const page = await loadPage(null, query);
    if (started === generation) guestPages.set(key, page);
    return page;
  }

  /** The landing page's three sample procedures. */
  async function samples(user: UserRow | null, limit = 3): Promise<ProcedureCard[]> {
    const cached = user ? undefined : guestSamples.get(limit);
    if (cached) return cached;
    const started = generation;
    const rows = await db.select().from(procedures).orderBy(desc(procedures.createdAt)).limit(limit);
    const cards = await toCards(user, rows);
    if (!user && started === generation) guestSamples.set(limit, cards);
    return cards;
  }

  async function listTags(): Promise<Tag[]> {
    return db.select({ id: tags.id, name: tags.name }).from(tags).orderBy(asc(tags.name));
  }

  /** The detail page: the full video and PDF only for those allowed, the demo otherwise. */
  async function detail(user: UserRow | null, id: string): Promise<ProcedureDetail> {
    if (!uuidPattern.test(id)) throw new AppError('NOT_FOUND');
    const [row] = await db.select().from(procedures).where(eq(procedures.id, id));
    if (!row) throw new AppError('NOT_FOUND');
    const [tagMap, allowed, chapters] = await Promise.all([
      tagsByProcedure([id]),
      fullAccess(user, [row]),
      db
        .select({ name: procedureChapters.name, timeSeconds: procedureChapters.timeSeconds })
        .from(procedureChapters)
        .where(eq(procedureChapters.procedureId, id))
        .orderBy(asc(procedureChapters.position)),
    ]);
    const canWatch = allowed.has(id);
    const captionRows = await db
      .select({ language: procedureCaptions.language, fileKey: procedureCaptions.fileKey })
      .from(procedureCaptions)
      .where(and(eq(procedureCaptions.procedureId, id), eq(procedureCaptions.video, canWatch ? 'full' : 'demo')));
    await analytics.record('VIDEOS', row.name, user);
    return {
      ...toCard(row, tagMap.get(id) ?? [], canWatch),
      chapters,
      videoUrl: mediaUrl(shownVideo(row, canWatch)),
      hlsUrl: (await deps.ladders?.ready(shownVideo(row, canWatch)))?.hlsUrl ?? null,
      isDemo: !canWatch,
      canWatchFullVideo: canWatch,
      // the media route serves a full video only to the device holding the viewing token
      needsViewingToken: canWatch && row.fullVideo !== null,
      guidePdfUrl: canWatch ? mediaUrl(row.guidePdf) : null,
      captions: captionRows
        .sort((a, b) => captionLanguages.indexOf(a.language) - captionLanguages.indexOf(b.language))
        .map((caption) => ({
          language: caption.language,
          label: captionLabels[caption.language],
          url: mediaUrl(caption.fileKey)!,
        })),
    };
  }

  /** Whether this visitor gets the full video of a procedure, by the rule the detail page uses; null if there is no such procedure. */
  async function canWatchFull(user: UserRow | null, id: string): Promise<boolean | null> {
    const row = await find(id);
    if (!row) return null;
    return (await fullAccess(user, [row])).has(id);
  }

  /** Cards of these procedures in the order given, leaving out ids that no longer exist. */
  async function cardsByIds(user: UserRow | null, ids: string[]): Promise<ProcedureCard[]> {
    if (ids.length === 0) return [];
    const rows = await db.select().from(procedures).where(inArray(procedures.id, ids));
    const cards = new Map((await toCards(user, rows)).map((card) => [card.id, card]));
    return ids.flatMap((id) => cards.get(id) ?? []);
  }

  async function find(id: string): Promise<ProcedureRow | null> {
    if (!uuidPattern.test(id)) return null;
    const [row] = await db.select().from(procedures).where(eq(procedures.id, id));
    return row ?? null;
  }

  /**
   * The picture over a guest's player on a procedure page (its preview, shown while the player waits for a press),
   * for the page's HTML to ask for it early (page-hints.ts); null without a video to show or a picture. Unlike
   * detail(), nothing is counted.
   */
  async function guestPoster(id: string): Promise<string | null> {
    const row = await find(id);
    if (!row) return null;
    const canWatch = (await fullAccess(null, [row])).has(id);
    return shownVideo(row, canWatch) ? mediaUrl(row.previewImage) : null;
  }

  return { list, samples, listTags, detail, find, canWatchFull, cardsByIds, guestPoster, invalidate };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
