import { createReadStream, createWriteStream, read } from 'node:fs';
import { access, mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { LRUCache } from 'lru-cache';
import { constants } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';

export type StoredFile = { size: number; modifiedAt?: Date };
type ByteRange = { start: number; end: number };

/** A stored file held open: every read goes to the one descriptor; release() once done with it. */
export type OpenedFile = StoredFile & {
  /** The range (inclusive) in one buffer (a few MiB at most): read into `into`, of exactly its length, when given. */
  bytes(range: ByteRange, into?: Buffer): Promise<Buffer>;
  release(): void;
};

/** Where uploaded and demo files live: a local folder (createLocalStorage) or an S3-compatible bucket (s3-storage.ts). */
export interface FileStorage {
  readonly kind: 'local' | 's3';
  /** Local folder, for the local store only (tests, backups and maintenance). */
  readonly root?: string;
  /** Object stores: the origin signed URLs point at (the Content-Security-Policy allows it for images and media). */
  readonly publicOrigin?: string;
  /** Streams the body in; a failed or aborted body leaves nothing under the key. */
  put(key: string, body: Readable): Promise<StoredFile>;
  stat(key: string): Promise<StoredFile | null>;
  read(key: string, range?: ByteRange): Readable;
  /**
   * Local store: the file held open for a few seconds, so the range requests of a video skip opening, stat and
   * closing it each time; null when there is no such file.
   */
  openFile?(key: string): Promise<OpenedFile | null>;
  /** Local store: is this file held open right now (it exists, checked within the last few seconds)? No wait, no I/O. */
  isHeldOpen?(key: string): boolean;
  /** Object stores: every key under the prefix (the shared deletion ledger). */
  list?(prefix: string): Promise<string[]>;
  /** Removes the file; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Object stores only: a URL that serves the object without us, valid for expiresInSeconds. */
  signedUrl?(key: string, options: { expiresInSeconds: number; cacheControl?: string }): Promise<string>;
  /** Readiness: throws when the store cannot be reached. */
  check(): Promise<void>;
  close?(): void;
}

/** Keys are relative, slash-separated, without dot segments; anything else is refused. */
export function isSafeKey(key: string): boolean {
  if (!key || key.length > 512 || key.startsWith('/') || key.includes('\\') || key.includes('\0')) return false;
  return key.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

// a file is kept open this long after it was opened, then closed once its last reader is done: files are written
// once under a new key (a put or delete through this store forgets the key at once), so this bounds how long an
// out-of-band change in the folder could go unseen
const heldOpenMs = 10_000;
type Held = { handle: FileHandle; file: StoredFile; readers: number; dropped: boolean };

/**
 * fs.read, promised: the same read on the thread pool as FileHandle.read, without the promise machinery the handle's
 * method adds to every range a player asks for (about 4 % of a 1 MiB read's CPU here). The descriptor stays open
 * meanwhile: the held file closes only with no reader left.
 */
const readAt = promisify(read);

function closeWhenUnused(held: Held) {
  if (held.dropped && held.readers === 0) void held.handle.close().catch(() => {});
}

function readerOf(held: Held) {
  held.readers++;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held.readers--;
    closeWhenUnused(held);
  };
}

export function createLocalStorage(root: string): FileStorage {
  const resolve = (key: string) => {
    if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${key}`);
    return path.join(root, ...key.split('/'));
  };
  const held = new LRUCache<string, Held>({
    max: 200,
    ttl: heldOpenMs,
    ttlAutopurge: true,
    dispose: (entry) => {
      entry.dropped = true;
      closeWhenUnused(entry);
    },
  });
  const opening = new Map<string, Promise<Held | null>>();

  async function openHeld(key: string): Promise<Held | null> {
    let handle: FileHandle;
    try {
      handle = await open(resolve(key), 'r');
    } catch {
      return null;
    }
    const info = await handle.stat().catch(() => null);
    if (!info?.isFile()) {
      await handle.close().catch(() => {});
      return null;
    }
    const entry: Held = { handle, file: { size: info.size, modifiedAt: info.mtime }, readers: 0, dropped: false };
    held.set(key, entry);
    return entry;
  }

  function opened(entry: Held): OpenedFile {
    const release = readerOf(entry);
    return {
      ...entry.file,
      release,
      async bytes(range, into) {
        const done = readerOf(entry);
        try {
          const length = range.end - range.start + 1;
          if (into && into.length !== length)
            throw new RangeError(`a ${into.length}-byte buffer for a ${length}-byte range`);
          const buffer = into ?? Buffer.allocUnsafe(length);
          const { bytesRead } = await readAt(entry.handle.fd, buffer, 0, length, range.start);
          if (bytesRead !== length) throw new Error(`short read of a stored file: ${bytesRead} of ${length} bytes`);
          return buffer;
        } finally {
          done();
        }
      },
    };
  }

  return {
    kind: 'local',
    root,
    async check() {
      await mkdir(root, { recursive: true });
      await access(root, constants.W_OK);
    },
    async put(key, body) {
      const target = resolve(key);
      await mkdir(path.dirname(target), { recursive: true });
      // write beside the target and rename, so a half-written upload is never served
      const partial = `${target}.${randomUUID()}.part`;
      try {
        await pipeline(body, createWriteStream(partial));
        await rename(partial, target);
        held.delete(key);
      } catch (error) {
        await rm(partial, { force: true });
        throw error;
      }
      return { size: (await stat(target)).size };
    },
    async stat(key) {
      if (!isSafeKey(key)) return null;
      try {
        const info = await stat(resolve(key));
        return info.isFile() ? { size: info.size, modifiedAt: info.mtime } : null;
      } catch {
        return null;
      }
    },
    async openFile(key) {
      if (!isSafeKey(key)) return null;
      const known = held.get(key);
      if (known) return opened(known);
      // requests arriving together open the file once
      let pending = opening.get(key);
      if (!pending) {
        pending = openHeld(key).finally(() => opening.delete(key));
        opening.set(key, pending);
      }
      const entry = await pending;
      return entry && !entry.dropped ? opened(entry) : entry ? this.openFile!(key) : null;
    },
    isHeldOpen(key) {
      const entry = held.get(key);
      return entry !== undefined && !entry.dropped;
    },
    read(key, range) {
      // 1 MiB reads: a 64 KiB default means sixteen times the system calls and stream turns per video second
      return createReadStream(resolve(key), {
        highWaterMark: 1024 * 1024,
        ...(range ? { start: range.start, end: range.end } : {}),
      });
    },
    async delete(key) {
      if (!isSafeKey(key)) return;
      held.delete(key);
      await rm(resolve(key), { force: true });
    },
  };
}
