import { createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, rename, rm, stat } from 'node:fs/promises';
import { constants } from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export type StoredFile = { size: number; modifiedAt?: Date };
type ByteRange = { start: number; end: number };

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

export function createLocalStorage(root: string): FileStorage {
  const resolve = (key: string) => {
    if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${key}`);
    return path.join(root, ...key.split('/'));
  };
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
    read(key, range) {
      // 1 MiB reads: a 64 KiB default means sixteen times the system calls and stream turns per video second
      return createReadStream(resolve(key), { highWaterMark: 1024 * 1024, ...(range ? { start: range.start, end: range.end } : {}) });
    },
    async delete(key) {
      if (!isSafeKey(key)) return;
      await rm(resolve(key), { force: true });
    },
  };
}
