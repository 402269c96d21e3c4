import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import mime from 'mime-types';
import { isSafeKey, type FileStorage } from './storage.ts';

export type S3Settings = {
  /** Unset: AWS itself (the region's endpoint). */
  endpoint: string | undefined;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** bucket in the path (MinIO, s3rver, most self-hosted stores) instead of in the host name */
  forcePathStyle: boolean;
};

// 8 MiB parts, four in flight: at most 32 MiB of one upload in memory, whatever its size
const partSize = 8 * 1024 * 1024;
const queueSize = 4;

function isNotFound(error: unknown): boolean {
  if (error instanceof S3ServiceException)
    return error.$metadata.httpStatusCode === 404 || error.name === 'NotFound' || error.name === 'NoSuchKey';
  return false;
}

/**
 * Files in an S3-compatible bucket (AWS, MinIO, R2, Spaces) through the official SDK v3. The bucket stays
 * private: browsers get objects only through short-lived signed URLs the media route hands out after its
 * own permission check (docs/decisions/015-object-storage.md).
 */
/**
 * The SDK prints a nine-line notice on Node 20 that its releases after January 2027 need Node 22; the lock file pins
 * this release and decision 008 records the engine, so its documented switch silences it.
 */
function silenceNodeSupportNotice() {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
}

export function createS3Storage(settings: S3Settings): FileStorage & { client: S3Client } {
  silenceNodeSupportNotice();
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
    // checksums only where S3 requires them: several S3-compatible stores refuse the SDK's default trailing CRC32
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const Bucket = settings.bucket;
  const checked = (key: string) => {
    if (!isSafeKey(key)) throw new Error(`unsafe storage key: ${key}`);
    return key;
  };
  // the origin browsers are redirected to (Content-Security-Policy img-src/media-src)
  const origin = settings.endpoint
    ? new URL(settings.endpoint).origin
    : `https://${settings.forcePathStyle ? `s3.${settings.region}.amazonaws.com` : `${Bucket}.s3.${settings.region}.amazonaws.com`}`;

  return {
    kind: 's3',
    client,
    publicOrigin: origin,
    async put(key, body) {
      let size = 0;
      const counter = new Transform({
        transform(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          callback(null, chunk);
        },
      });
      // multipart above one part, a single PUT below; an aborted body aborts the upload (no orphan parts kept)
      const upload = new Upload({
        client,
        params: {
          Bucket,
          Key: checked(key),
          Body: counter,
          ContentType: mime.lookup(key) || 'application/octet-stream',
        },
        partSize,
        queueSize,
        leavePartsOnError: false,
      });
      const feeding = pipeline(body, counter);
      try {
        await Promise.all([upload.done(), feeding]);
      } catch (error) {
        await upload.abort().catch(() => {});
        counter.destroy();
        throw error;
      }
      return { size };
    },
    async stat(key) {
      if (!isSafeKey(key)) return null;
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: key }));
        return { size: head.ContentLength ?? 0, modifiedAt: head.LastModified };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw error;
      }
    },
    read(key, range) {
      const out = new PassThrough({ highWaterMark: 1024 * 1024 });
      client
        .send(
          new GetObjectCommand({
            Bucket,
            Key: checked(key),
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        )
        .then((object) => {
          const source = object.Body as Readable | undefined;
          if (!source) return void out.end();
          source.on('error', (error) => out.destroy(error));
          out.on('close', () => source.destroy());
          source.pipe(out);
        })
        .catch((error: unknown) => out.destroy(error as Error));
      return out;
    },
    async list(prefix) {
      const keys: string[] = [];
      let token: string | undefined;
      do {
        const page = await client.send(
          new ListObjectsV2Command({ Bucket, Prefix: prefix, ...(token ? { ContinuationToken: token } : {}) }),
        );
        for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key);
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return keys;
    },
    async delete(key) {
      if (!isSafeKey(key)) return;
      // S3 answers 204 for a missing key too: deleting twice is harmless
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },
    async signedUrl(key, options) {
      return getSignedUrl(
        client,
        new GetObjectCommand({
          Bucket,
          Key: checked(key),
          ...(options.cacheControl ? { ResponseCacheControl: options.cacheControl } : {}),
        }),
        { expiresIn: options.expiresInSeconds },
      );
    },
    async check() {
      await client.send(new HeadBucketCommand({ Bucket }));
    },
    close() {
      client.destroy();
    },
  };
}
