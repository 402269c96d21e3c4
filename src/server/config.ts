import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { S3Settings } from './services/s3-storage.ts';

const flag = z.enum(['0', '1', 'true', 'false']).transform((value) => value === '1' || value === 'true');

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z.string().optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(6).optional(),
  SEED_DEMO: flag.optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('CxVet <no-responder@cxvet.com>'),
  CONTACT_EMAIL: z.email().default('contacto@cxvet.com'),
  // no default here: see paymentsProviderFor
  PAYMENTS_PROVIDER: z.enum(['simulado', 'paypal']).optional(),
  NODE_ENV: z.string().optional(),
  PAYPAL_API_URL: z.url().default('https://api-m.sandbox.paypal.com'),
  PAYPAL_CLIENT_ID: z.string().optional(),
  PAYPAL_CLIENT_SECRET: z.string().optional(),
  PAYPAL_PLAN_MONTHLY: z.string().optional(),
  PAYPAL_PLAN_ANNUAL: z.string().optional(),
  PAYPAL_WEBHOOK_ID: z.string().optional(),
  STORAGE: z.enum(['local', 's3']).default('local'),
  // STORAGE=s3: any S3-compatible store; S3_ENDPOINT unset means AWS itself
  S3_ENDPOINT: z.url().optional(),
  S3_BUCKET: z.string().optional(),
  S3_REGION: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  // bucket in the path: MinIO and most self-hosted stores; unset: on when S3_ENDPOINT is set
  S3_FORCE_PATH_STYLE: flag.optional(),
  // lifetime of a signed URL to a private file (a full video); SigV4 allows at most 7 days
  S3_SIGNED_URL_SECONDS: z.coerce.number().int().min(1).max(604_800).default(300),
  // STORAGE=local behind nginx: after the permission check /media answers X-Accel-Redirect: <prefix><key> and nginx
  // sends the file from an `internal` location (deploy/nginx.conf); unset or empty: this server sends the bytes
  MEDIA_ACCEL_REDIRECT: z
    .string()
    .regex(
      /^(|\/([A-Za-z0-9_~-][A-Za-z0-9._~-]*\/)+)$/,
      'una ruta interna que empieza y termina en /, como /_media-interno/',
    )
    .refine(
      (prefix) => !/^\/(media|api|assets)\//.test(prefix),
      'no puede estar bajo /media/, /api/ ni /assets/: nginx la mandaría de vuelta al servidor',
    )
    .optional(),
  SESSION_SECRET: z.string().min(32).optional(),
  // hops of reverse proxies whose X-Forwarded-For we believe
  TRUST_PROXY: z.coerce.number().int().min(0).default(0),
  // sign-in attempts per minute for one account from one IP; the end-to-end suite raises it to sign in many test accounts
  SIGN_IN_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  // per account from every IP; unset: 3 × SIGN_IN_LIMIT_PER_MINUTE (at least 30)
  SIGN_IN_ACCOUNT_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).optional(),
  // per IP over every account (a classroom behind one NAT); unset: 30 × SIGN_IN_LIMIT_PER_MINUTE (at least 300)
  SIGN_IN_IP_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).optional(),
  // backups (npm run backup and the scheduled job): folder, how often, how many archives to keep
  BACKUP_DIR: z.string().optional(),
  BACKUP_SCHEDULE: z.enum(['off', 'hourly', 'daily', 'weekly']).optional(),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
  // HLS ladders of uploaded videos; unset, the ffmpeg on PATH
  FFMPEG_PATH: z.string().min(1).optional(),
  // unset with FFMPEG_PATH set: the ffprobe beside that ffmpeg
  FFPROBE_PATH: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  admin: { email: string; password: string } | undefined;
  seedDemo: boolean;
  smtpUrl: string | undefined;
  mailFrom: string;
  contactEmail: string;
  paymentsProvider: 'simulado' | 'paypal';
  /** Required when paymentsProvider is paypal. */
  paypal?: {
    apiUrl: string;
    clientId: string;
    clientSecret: string;
    planIds: { monthly: string; annual: string };
    webhookId: string;
  };
  storage: 'local' | 's3';
  /** Set exactly when storage is s3. */
  s3?: S3Settings;
  /** Lifetime of a signed URL to a private file on an object store (S3_SIGNED_URL_SECONDS). */
  signedUrlSeconds: number;
  /** Local store behind nginx: the internal URL prefix nginx sends uploads from (MEDIA_ACCEL_REDIRECT). */
  mediaAccelRedirect?: string;
  sessionSecret: string;
  trustProxy: number;
  signInLimits: { perAccountAndIp: number; perAccount: number; perIp: number };
  /** NODE_ENV=production: no development conveniences (the Vite origin, loopback aliases). */
  production: boolean;
  secureCookies: boolean;
  logLevel: string;
  /** Scheduled backups: daily on the embedded database, off on PostgreSQL (its operator's tools back it up). */
  backup: { dir: string; schedule: 'off' | 'hourly' | 'daily' | 'weekly'; keep: number };
  /** ffmpeg and ffprobe for the HLS ladders (unset: looked up, see findVideoTools); missing, videos play as uploaded. */
  ffmpegPath?: string;
  ffprobePath?: string;
};

/** Reads the environment once at start; a bad value stops the server with its name. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Configuración no válida:\n${problems.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  if (e.ADMIN_EMAIL && !e.ADMIN_PASSWORD) throw new Error('ADMIN_EMAIL necesita ADMIN_PASSWORD');
  const seedDemo = e.SEED_DEMO ?? !e.DATABASE_URL;
  const paymentsProvider = paymentsProviderFor({
    chosen: e.PAYMENTS_PROVIDER,
    production: e.NODE_ENV === 'production',
    seedDemo,
  });
  const paypalVars = [
    e.PAYPAL_CLIENT_ID,
    e.PAYPAL_CLIENT_SECRET,
    e.PAYPAL_PLAN_MONTHLY,
    e.PAYPAL_PLAN_ANNUAL,
    e.PAYPAL_WEBHOOK_ID,
  ];
  if (paymentsProvider === 'paypal' && paypalVars.some((value) => !value)) {
    throw new Error(
      'PAYMENTS_PROVIDER=paypal necesita PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET, PAYPAL_PLAN_MONTHLY, PAYPAL_PLAN_ANNUAL y PAYPAL_WEBHOOK_ID',
    );
  }
  const s3 = e.STORAGE === 's3' ? s3SettingsFor(e) : undefined;
  const mediaAccelRedirect = e.MEDIA_ACCEL_REDIRECT || undefined;
  if (mediaAccelRedirect && e.STORAGE === 's3') {
    throw new Error(
      'MEDIA_ACCEL_REDIRECT es para STORAGE=local: con STORAGE=s3 los archivos ya se sirven desde el bucket por URL firmada',
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir,
    databaseUrl: e.DATABASE_URL || undefined,
    admin: e.ADMIN_EMAIL && e.ADMIN_PASSWORD ? { email: e.ADMIN_EMAIL, password: e.ADMIN_PASSWORD } : undefined,
    // demo content is for the embedded database; a real PostgreSQL opts in explicitly
    seedDemo,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    contactEmail: e.CONTACT_EMAIL,
    paymentsProvider,
    paypal:
      paymentsProvider === 'paypal'
        ? {
            apiUrl: e.PAYPAL_API_URL,
            clientId: e.PAYPAL_CLIENT_ID!,
            clientSecret: e.PAYPAL_CLIENT_SECRET!,
            planIds: { monthly: e.PAYPAL_PLAN_MONTHLY!, annual: e.PAYPAL_PLAN_ANNUAL! },
            webhookId: e.PAYPAL_WEBHOOK_ID!,
          }
        : undefined,
    storage: e.STORAGE,
    s3,
    signedUrlSeconds: e.S3_SIGNED_URL_SECONDS,
    mediaAccelRedirect,
    sessionSecret: e.SESSION_SECRET ?? readOrCreateSecret(dataDir),
    trustProxy: e.TRUST_PROXY,
    signInLimits: {
      perAccountAndIp: e.SIGN_IN_LIMIT_PER_MINUTE,
      perAccount: e.SIGN_IN_ACCOUNT_LIMIT_PER_MINUTE ?? Math.max(30, 3 * e.SIGN_IN_LIMIT_PER_MINUTE),
      perIp: e.SIGN_IN_IP_LIMIT_PER_MINUTE ?? Math.max(300, 30 * e.SIGN_IN_LIMIT_PER_MINUTE),
    },
    production: e.NODE_ENV === 'production',
    secureCookies: publicUrl.startsWith('https://'),
    logLevel: e.LOG_LEVEL,
    backup: {
      dir: path.resolve(e.BACKUP_DIR ?? path.join(dataDir, 'backups')),
      schedule: e.BACKUP_SCHEDULE ?? (e.DATABASE_URL ? 'off' : 'daily'),
      keep: e.BACKUP_KEEP,
    },
    ffmpegPath: e.FFMPEG_PATH,
    ffprobePath: e.FFPROBE_PATH,
  };
}

/** STORAGE=s3 without its bucket or keys cannot store anything: refuse to start, naming what is missing. */
function s3SettingsFor(e: z.infer<typeof envSchema>): S3Settings {
  const required = {
    S3_BUCKET: e.S3_BUCKET,
    S3_REGION: e.S3_REGION,
    S3_ACCESS_KEY_ID: e.S3_ACCESS_KEY_ID,
    S3_SECRET_ACCESS_KEY: e.S3_SECRET_ACCESS_KEY,
  };
  const missing = Object.entries(required)
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (missing.length > 0) {
    throw new Error(`STORAGE=s3 necesita ${missing.join(', ')} (y S3_ENDPOINT si el almacenamiento no es AWS)`);
  }
  return {
    endpoint: e.S3_ENDPOINT,
    bucket: e.S3_BUCKET!,
    region: e.S3_REGION!,
    accessKeyId: e.S3_ACCESS_KEY_ID!,
    secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
    forcePathStyle: e.S3_FORCE_PATH_STYLE ?? Boolean(e.S3_ENDPOINT),
  };
}

/**
 * The simulated provider lets anyone "pay" without money, so it is never chosen silently outside a
 * demo: a production start (NODE_ENV=production) or one without demo content (SEED_DEMO=0, or a
 * PostgreSQL database) must name its provider.
 */
function paymentsProviderFor(input: {
  chosen: 'simulado' | 'paypal' | undefined;
  production: boolean;
  seedDemo: boolean;
}) {
  if (input.chosen) return input.chosen;
  if (input.production || !input.seedDemo) {
    throw new Error(
      'PAYMENTS_PROVIDER no está definido: en producción (NODE_ENV=production) o sin datos de demostración (SEED_DEMO=0) ' +
        'elige PAYMENTS_PROVIDER=paypal (con las variables PAYPAL_*) o, solo para pruebas, PAYMENTS_PROVIDER=simulado.',
    );
  }
  return 'simulado';
}

function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
