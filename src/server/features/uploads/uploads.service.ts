import { Readable } from 'node:stream';
import { and, eq, inArray, lt } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import type { Db } from '#server/db/client.ts';
import { pendingUploads } from '#server/db/schema/index.ts';
import { isSafeKey, type FileStorage } from '#server/services/storage.ts';
import { variantKey } from '#server/features/media/picture-variants.ts';
import { isPictureKey, pictureVariantWidths } from '#shared/media/picture-variants.ts';
import { AppError } from '#shared/errors.ts';
import { messages } from '#shared/messages.ts';
import { describeWebVttProblem, findWebVttProblem } from './webvtt.ts';
import {
  kindByName,
  safeFileName,
  uploadFolder,
  uploadFormats,
  uploadSizeLimits,
  uploadTargets,
  type UploadKind,
  type UploadTarget,
} from '#shared/uploads/uploads.rules.ts';

/** Bytes file-type needs to recognise every format we accept. */
const sniffBytes = 4100;
/** Uploads not saved into a record within this time are deleted. */
const pendingUploadLifetimeMs = 24 * 3_600_000;

type FileRule = {
  field: string;
  next: string | null;
  current: string | null;
  folder: string;
  kinds: readonly UploadKind[];
};

/** Reads the first bytes of a stream; `body(limit)` then streams the whole content, failing past `limit` bytes. */
async function splitHead(stream: Readable) {
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const chunks: Buffer[] = [];
  let length = 0;
  let done = false;
  while (length < sniffBytes) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    chunks.push(next.value);
    length += next.value.length;
  }
  const head = Buffer.concat(chunks);
  async function* whole(limit: number) {
    let seen = head.length;
    if (seen > limit) throw new AppError('PAYLOAD_TOO_LARGE');
    yield head;
    if (done) return;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      seen += next.value.length;
      if (seen > limit) throw new AppError('PAYLOAD_TOO_LARGE');
      yield next.value;
    }
  }
  // the client is still sending: read the rest so it gets our answer instead of a reset
  const drain = () => {
    if (!done)
      void (async () => {
        for (let next = await iterator.next(); !next.done; next = await iterator.next());
      })().catch(() => {});
  };
  return { head, body: (limit: number) => Readable.from(whole(limit), { objectMode: false }), drain };
}

/** Follow-up work on saved and deleted videos (their HLS ladders), kept out of this service. */
export type VideoHooks = {
  /** Runs inside the saving transaction. */
  saved(keys: string[], tx: Db): Promise<void>;
  removed(keys: string[]): Promise<void>;
};

export function createUploadsService(deps: { db: Db; storage: FileStorage; now?: () => number; videos?: VideoHooks }) {
  const { db, storage } = deps;
  const now = deps.now ?? Date.now;

  /** Streams one file to storage after checking its name and first bytes; it stays pending until a record claims it. */
  async function store(input: { target: UploadTarget; recordId?: string; fileName: string; stream: Readable }) {
    const { target, recordId, fileName, stream } = input;
    const rule = uploadTargets[target];
    if (rule.perRecord && !recordId) throw new AppError('VALIDATION', { fields: { recordId: messages.requiredDot } });
    const kind = kindByName(fileName, rule.kinds);
    if (!kind) {
      stream.resume();
      throw new AppError('FILE_FORMAT');
    }
    const { head, body, drain } = await splitHead(stream);
    const key = `${uploadFolder(target, recordId)}/${now()}_${safeFileName(fileName)}`;
    if (kind === 'captions') {
      // text has no magic bytes: the whole (small) file is parsed before it is stored
      const chunks: Buffer[] = [];
      try {
        for await (const chunk of body(uploadSizeLimits[kind])) chunks.push(chunk as Buffer);
      } catch (error) {
        drain();
        throw error;
      }
      const bytes = Buffer.concat(chunks);
      const problem = findWebVttProblem(bytes);
      if (problem) throw new AppError('CAPTIONS_INVALID', { fields: { file: describeWebVttProblem(problem) } });
      await storage.put(key, Readable.from([bytes]));
    } else {
      const detected = await fileTypeFromBuffer(head);
      if (!detected || !uploadFormats[kind].mimeTypes.includes(detected.mime)) {
        drain();
        throw new AppError('FILE_FORMAT');
      }
      await storage.put(key, body(uploadSizeLimits[kind]));
    }
    await db
      .insert(pendingUploads)
      .values({ key, kind })
      .onConflictDoUpdate({ target: pendingUploads.key, set: { kind } });
    await sweep();
    return { key, kind };
  }

  /** Deletes a pending upload the admin discarded; saved files of records are never touched here. */
  async function discard(key: string): Promise<void> {
    const [row] = await db.delete(pendingUploads).where(eq(pendingUploads.key, key)).returning();
    if (row) await storage.delete(key);
  }

  /** Deletes uploads abandoned in a form that was never saved. */
  async function sweep(): Promise<void> {
    const rows = await db
      .delete(pendingUploads)
      .where(lt(pendingUploads.createdAt, new Date(now() - pendingUploadLifetimeMs)))
      .returning({ key: pendingUploads.key });
    await removeFiles(rows.map((row) => row.key));
  }

  /**
   * Checks the file fields of a record being saved: each value is the field's current key or a pending
   * upload of the right folder and kind. Returns the pending keys to claim and the replaced keys to delete.
   */
  async function plan(rules: FileRule[]): Promise<{ claimed: string[]; obsolete: string[] }> {
    const candidates = rules.filter((rule) => rule.next && rule.next !== rule.current).map((rule) => rule.next!);
    const pending = candidates.length
      ? await db.select().from(pendingUploads).where(inArray(pendingUploads.key, candidates))
      : [];
    const kindByKey = new Map(pending.map((row) => [row.key, row.kind]));
    const fields: Record<string, string> = {};
    const claimed: string[] = [];
    const obsolete: string[] = [];
    for (const rule of rules) {
      if (rule.next === rule.current) continue;
      if (rule.next) {
        const kind = kindByKey.get(rule.next) as UploadKind | undefined;
        const inFolder =
          rule.next.startsWith(`${rule.folder}/`) && !rule.next.slice(rule.folder.length + 1).includes('/');
        if (!kind || !inFolder || !rule.kinds.includes(kind)) {
          fields[rule.field] = messages.invalidFileFormat;
          continue;
        }
        claimed.push(rule.next);
      }
      if (rule.current) obsolete.push(rule.current);
    }
    if (Object.keys(fields).length > 0) throw new AppError('VALIDATION', { fields });
    return { claimed, obsolete };
  }

  /** Marks pending uploads as saved into a record; call it inside the transaction that saves the record. */
  async function claim(keys: string[], executor: Db = db): Promise<void> {
    if (keys.length === 0) return;
    const rows = await executor.delete(pendingUploads).where(inArray(pendingUploads.key, keys)).returning();
    const videos = rows.filter((row) => row.kind === 'video').map((row) => row.key);
    if (videos.length > 0) await deps.videos?.saved(videos, executor);
  }

  /** Whether this key is a pending upload (for a form's preview of a file not saved yet). */
  async function isPending(key: string, kind?: UploadKind): Promise<boolean> {
    const condition = kind
      ? and(eq(pendingUploads.key, key), eq(pendingUploads.kind, kind))
      : eq(pendingUploads.key, key);
    const [row] = await db.select({ key: pendingUploads.key }).from(pendingUploads).where(condition);
    return Boolean(row);
  }

  /** Deletes files of records that were deleted or replaced, with a picture's narrower copies; a missing file is not an error. */
  async function removeFiles(keys: (string | null | undefined)[]): Promise<void> {
    const present = keys.filter((key): key is string => Boolean(key));
    const copies = present
      .filter(isPictureKey)
      .flatMap((key) => pictureVariantWidths.map((width) => variantKey(key, width)));
    await Promise.all([...present, ...copies.filter(isSafeKey)].map((key) => storage.delete(key)));
    await deps.videos?.removed(present);
  }

  return { store, discard, sweep, plan, claim, isPending, removeFiles };
}

export type UploadsService = ReturnType<typeof createUploadsService>;
