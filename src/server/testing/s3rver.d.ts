// the parts of s3rver (a Koa app, no types of its own) the test server uses
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';
  namespace S3rver {
    type Context = {
      method: string;
      originalUrl: string;
      query: Record<string, unknown>;
      get(header: string): string;
      status: number;
      type: string;
      body: unknown;
    };
    type Middleware = (ctx: Context, next: () => Promise<void>) => Promise<void> | void;
  }
  class S3rver {
    constructor(options: {
      port?: number;
      address?: string;
      silent?: boolean;
      directory: string;
      configureBuckets?: { name: string }[];
    });
    middleware: S3rver.Middleware[];
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
  }
  export default S3rver;
}
