import { Readable } from 'node:stream';
import type { Log } from '#server/services/log.ts';
import { boundedCache } from '#server/services/bounded-cache.ts';
import { isSafeKey, type FileStorage } from '#server/services/storage.ts';
import type { PictureVariantWidth } from '#shared/media/picture-variants.ts';

/** Where the copy `width` pixels wide of a stored picture is kept, in the same store (never served by its own key). */
export const variantKey = (key: string, width: PictureVariantWidth) => `variants/w${width}/${key}.webp`;

// a source above these is sent as it is: decoding it would hold hundreds of MB (uploads allow 10 MB pictures)
const maxSourceBytes = 20 * 1024 * 1024;
const maxSourcePixels = 40_000_000;
// copies made at once: each holds a decoded source (a 12 MP photo is ~50 MB); more requests wait their turn
const concurrentGenerations = 2;
// what to send for a copy, remembered: a source that cannot be copied, so it is not decoded (and logged) again on
// every request; on an object store, a stored copy too (its HEAD is a round trip; a local stat costs next to nothing
// and sees a copy deleted by hand at once)
const knownTtlMs = 10 * 60_000;
// how long a request waits for its copy before it is sent the original (cacheable an hour, as any answer of it): a
// long queue of copies on a busy machine, or a copy that never ends, holds no picture of a page for longer
const defaultWaitMs = 10_000;
// how long a copy keeps its turn: one that never ends (a stalled store, a stuck decoder) would otherwise hold it for
// ever, and every later copy would wait behind it
const defaultTurnMs = 60_000;

type Sharp = typeof import('sharp');

/**
 * Makes and keeps the narrower WebP copies of stored pictures. A copy is made once: requests for the same copy
 * arriving together share one generation, and the stored file serves every later request and survives a restart.
 * Any copy that cannot be made (a source sharp cannot decode, too large, a failing store) leaves the original to be
 * sent: the copy only saves bytes, and the original is what this visitor may receive anyway.
 */
export function createPictureVariants(deps: {
  storage: FileStorage;
  log: Pick<Log, 'warn' | 'error'>;
  waitMs?: number;
  turnMs?: number;
}) {
  const { storage, log } = deps;
  const waitMs = deps.waitMs ?? defaultWaitMs;
  const turnMs = deps.turnMs ?? defaultTurnMs;
  const pending = new Map<string, Promise<string>>();
  const known = boundedCache<string, string>({ entries: 10_000, ttl: knownTtlMs });
  let sharpLoaded: Promise<Sharp> | null = null;
  // loaded on the first copy, not at start: libvips is ~15 MB of native code
  const loadSharp = () =>
    (sharpLoaded ??= import('sharp').then((module) => {
      // copies are made once each: libvips' operation cache would only hold memory
      module.default.cache(false);
      return module;
    }));

  const rememberStored = (target: string) => {
    if (storage.kind !== 'local') known.set(target, target);
  };

  let running = 0;
  const waiting: Array<() => void> = [];
  async function inTurn<T>(target: string, work: () => Promise<T>): Promise<T> {
    if (running >= concurrentGenerations) await new Promise<void>((resolve) => waiting.push(resolve));
    else running++;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const next = waiting.shift();
      if (next) next();
      else running--;
    };
    const stuck = setTimeout(() => {
      log.error({ target, ms: turnMs }, 'picture variant still being made: its turn goes to the next copy');
      release();
    }, turnMs);
    stuck.unref();
    try {
      return await work();
    } finally {
      clearTimeout(stuck);
      release();
    }
  }

  /** The copy's key once made, or the original's if the copy is not ready within `waitMs` (it is still made). */
  function within(job: Promise<string>, key: string, width: PictureVariantWidth): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<string>((resolve) => {
      timer = setTimeout(() => {
        log.warn({ key, width, ms: waitMs }, 'picture variant not ready in time, the original is sent');
        resolve(key);
      }, waitMs);
      timer.unref();
    });
    return Promise.race([job, late]).finally(() => clearTimeout(timer));
  }

  async function generate(key: string, target: string, width: PictureVariantWidth): Promise<string> {
    const source = await storage.stat(key);
    // the original's own answer: 404 when it is missing, as without ?w=
    if (!source) return key;
    if (source.size > maxSourceBytes) {
      log.warn({ key, width, bytes: source.size }, 'picture variant not made: source too large, the original is sent');
      known.set(target, key);
      return key;
    }
    let webp: Buffer;
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of storage.read(key)) chunks.push(chunk as Buffer);
      const { default: sharp } = await loadSharp();
      webp = await sharp(Buffer.concat(chunks), { limitInputPixels: maxSourcePixels })
        .rotate() // the EXIF orientation, which the WebP copy does not carry
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: 75 })
        .toBuffer();
    } catch (error) {
      // the error says why: not a picture sharp reads, a corrupt one, more pixels than maxSourcePixels
      log.warn({ key, width, err: error }, 'picture variant not made: source cannot be decoded, the original is sent');
      known.set(target, key);
      return key;
    }
    try {
      // the store leaves nothing under the key when the write fails
      await storage.put(target, Readable.from([webp]));
    } catch (error) {
      // not remembered: the next request tries again
      log.error({ key, width, err: error }, 'picture variant not stored, the original is sent');
      return key;
    }
    // deleted while its copy was being made (uploads.removeFiles deletes the copies beside it): no copy outlives it
    if (!(await storage.stat(key))) {
      await storage.delete(target).catch(() => {});
      return key;
    }
    rememberStored(target);
    return target;
  }

  /** The key to send for the picture `key` at `width`: its stored copy, made now if needed, or else the original. */
  async function keyFor(key: string, width: PictureVariantWidth): Promise<string> {
    const target = variantKey(key, width);
    if (!isSafeKey(target)) return key; // a key near the length limit
    const remembered = known.get(target);
    if (remembered) return remembered;
    let job = pending.get(target);
    if (!job) {
      job = (async () => {
        if (await storage.stat(target)) {
          rememberStored(target);
          return target;
        }
        return inTurn(target, () => generate(key, target, width));
      })().finally(() => pending.delete(target));
      pending.set(target, job);
    }
    return within(job, key, width);
  }

  return { keyFor };
}
