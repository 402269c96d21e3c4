import type { Server } from 'node:http';
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import S3rver from 's3rver';
import type { S3Settings } from '#server/services/s3-storage.ts';

// s3rver's one account
const accessKeyId = 'S3RVER';
const secretAccessKey = 'S3RVER';
const region = 'us-east-1';

const encode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();

/** Recomputes a presigned (query) Signature V4 as S3 does; true when it matches. */
function presignedSignatureMatches(method: string, rawUrl: string, host: string): boolean {
  const [pathPart = '/', queryPart = ''] = rawUrl.split('?');
  const params = new URLSearchParams(queryPart);
  const given = params.get('X-Amz-Signature') ?? '';
  const [keyId, date, scopeRegion, service, terminator] = (params.get('X-Amz-Credential') ?? '').split('/');
  const amzDate = params.get('X-Amz-Date') ?? '';
  const signedHeaders = (params.get('X-Amz-SignedHeaders') ?? '').split(';');
  if (keyId !== accessKeyId || !date || !scopeRegion || !service || terminator !== 'aws4_request') return false;
  const query = [...params.entries()]
    .filter(([name]) => name !== 'X-Amz-Signature')
    .map(([name, value]) => [encode(name), encode(value)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const headers = signedHeaders.map((name) => `${name}:${name === 'host' ? host : ''}\n`).join('');
  const canonical = [method, pathPart, query, headers, signedHeaders.join(';'), 'UNSIGNED-PAYLOAD'].join('\n');
  const scope = `${date}/${scopeRegion}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonical).digest('hex')].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${secretAccessKey}`, date), scopeRegion), service), 'aws4_request');
  const expected = Buffer.from(hmac(key, toSign).toString('hex'));
  return expected.length === given.length && timingSafeEqual(expected, Buffer.from(given));
}

/**
 * An S3-compatible server in this process (s3rver, a dev dependency) with one empty bucket. s3rver checks
 * the expiry of presigned URLs but neither their signature nor anonymous reads; the middleware put in
 * front of it refuses what a private bucket on S3 refuses: a request without credentials, and a presigned
 * URL whose signature does not match (a tampered key, range or lifetime).
 */
export async function startS3TestServer(options: { bucket?: string; port?: number } = {}) {
  const bucket = options.bucket ?? 'cxvet-test';
  const directory = await mkdtemp(path.join(tmpdir(), 'cxvet-s3rver-'));
  const server = new S3rver({
    port: options.port ?? 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const denied = (ctx: S3rver.Context, message: string) => {
    ctx.status = 403;
    ctx.type = 'application/xml';
    ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code><Message>${message}</Message></Error>`;
  };
  server.middleware.unshift(async (ctx, next) => {
    const query = ctx.query as Record<string, unknown>;
    if ('X-Amz-Algorithm' in query) {
      if (!presignedSignatureMatches(ctx.method, ctx.originalUrl, ctx.get('host')))
        return denied(ctx, 'SignatureDoesNotMatch');
    } else if (!ctx.get('authorization')) {
      return denied(ctx, 'Access Denied');
    }
    return next();
  });
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  const settings: S3Settings = { endpoint, bucket, region, accessKeyId, secretAccessKey, forcePathStyle: true };
  return {
    endpoint,
    settings,
    /** STORAGE=s3 environment for a server process on this bucket. */
    env: {
      STORAGE: 's3',
      S3_ENDPOINT: endpoint,
      S3_BUCKET: bucket,
      S3_REGION: region,
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
      S3_FORCE_PATH_STYLE: '1',
    },
    async close() {
      const closing = server.close();
      // a response the other side stopped reading (a paused video) would hold close() open until its socket ends
      (server as unknown as { httpServer?: Server }).httpServer?.closeAllConnections();
      await closing;
      await rm(directory, { recursive: true, force: true });
    },
  };
}
