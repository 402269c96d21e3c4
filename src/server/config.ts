import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { S3Settings } from './services/s3-storage.ts';
import { credentialsKeyFor, type CredentialsKey } from './features/credentials/signing-key.ts';
import { ltiKeyFor, type LtiKey } from './features/lti/lti-key.ts';
import {
  chosenProviders,
  mercadoPagoSettingsFor,
  paymentsProviderNames,
  paymentsProvidersFor,
  paypalApiUrlFor,
  whyProviderIsNeeded,
  type PaymentsProviderName,
} from './payments-config.ts';

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
  CERTIFICATE_PLACE: z.string().trim().min(1).max(100).default('Ciudad de México'),
  // no default here: see paymentsProvidersFor; PAYMENTS_PROVIDERS (a list) wins over the older PAYMENTS_PROVIDER
  PAYMENTS_PROVIDER: z.enum(['simulado', 'paypal']).optional(),
  PAYMENTS_PROVIDERS: z
    .string()
    .transform((list) =>
      list
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(paymentsProviderNames)).min(1, 'al menos un proveedor: paypal, mercadopago o simulado'))
    .optional(),
  NODE_ENV: z.string().optional(),
  // unset: the sandbox, outside production only (see paypalApiUrlFor)
  PAYPAL_API_URL: z.url().optional(),
  // a staging site may run the simulated provider with NODE_ENV=production, and must say so
  ALLOW_SIMULATED_PAYMENTS_IN_PRODUCTION: flag.optional(),
  PAYPAL_CLIENT_ID: z.string().optional(),
  PAYPAL_CLIENT_SECRET: z.string().optional(),
  PAYPAL_PLAN_MONTHLY: z.string().optional(),
  PAYPAL_PLAN_ANNUAL: z.string().optional(),
  PAYPAL_WEBHOOK_ID: z.string().optional(),
  // unset: https://api.mercadopago.com, outside production only (test and live differ by credentials, not host)
  MERCADOPAGO_API_URL: z.url().optional(),
  MERCADOPAGO_ACCESS_TOKEN: z.string().optional(),
  // the secret of the notifications (Tus integraciones → Webhooks), which signs x-signature
  MERCADOPAGO_WEBHOOK_SECRET: z.string().optional(),
  // Facturapi's secret key (sk_test_… issues test facturas, sk_live_… real ones); unset: nothing is invoiced
  FACTURAPI_KEY: z.string().optional(),
  // unset: https://www.facturapi.io/v2 (the tests point it at their fake)
  FACTURAPI_API_URL: z.url().optional(),
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
  // Open Badges: the Ed25519 seed (hex) that signs credentials, and earlier public keys (z6Mk…, comma-separated)
  CREDENTIALS_SIGNING_KEY: z.string().optional(),
  CREDENTIALS_PREVIOUS_PUBLIC_KEYS: z.string().optional(),
  // LTI 1.3: the tool's RSA private key (PKCS#8 PEM), and earlier public keys (a JSON list of JWKs, each with its `exp`)
  LTI_SIGNING_KEY: z.string().optional(),
  LTI_PREVIOUS_PUBLIC_KEYS: z.string().optional(),
  // hops of reverse proxies whose X-Forwarded-For we believe
  TRUST_PROXY: z.coerce.number().int().min(0).default(0),
  // sign-in attempts per minute for one account from one IP; the end-to-end suite raises it to sign in many test accounts
  SIGN_IN_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  // per account from every IP; unset: 3 × SIGN_IN_LIMIT_PER_MINUTE (at least 30)
  SIGN_IN_ACCOUNT_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).optional(),
  // failed sign-ins per IP over every account (correct ones are not counted: a class behind one NAT); unset: 30 × SIGN_IN_LIMIT_PER_MINUTE (at least 300)
  SIGN_IN_IP_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).optional(),
  // backups (npm run backup and the scheduled job): folder, how often, how many archives to keep
  BACKUP_DIR: z.string().optional(),
  BACKUP_SCHEDULE: z.enum(['off', 'hourly', 'daily', 'weekly']).optional(),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
  // ledger of deleted accounts, shared by every instance and kept outside the database and DATA_DIR (STORAGE=local)
  DELETION_LEDGER_PATH: z.string().optional(),
  // at shutdown, seconds during which /api/ready answers 503 while requests are still served (a load balancer notices)
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(300).optional(),
  // HLS ladders of uploaded videos; unset, the ffmpeg on PATH
  FFMPEG_PATH: z.string().min(1).optional(),
  // unset with FFMPEG_PATH set: the ffprobe beside that ffmpeg
  FFPROBE_PATH: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // the clock of dates in spreadsheets and calendars (an IANA zone)
  SITE_TIME_ZONE: z
    .string()
    .default('America/Mexico_City')
    .refine(isTimeZone, 'una zona horaria IANA, como America/Mexico_City'),
});

/** The environment as parsed and checked. */
export type Env = z.infer<typeof envSchema>;

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

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
  /** The place printed beside the date on certificates. */
  certificatePlace: string;
  /** Every provider members may pay through (PAYMENTS_PROVIDERS, or the single PAYMENTS_PROVIDER). */
  paymentsProviders: PaymentsProviderName[];
  /** The provider of the subscriptions and diploma orders in dollars: PayPal, or the simulated one. */
  paymentsProvider: 'simulado' | 'paypal';
  /** Set exactly when mercadopago is one of paymentsProviders. */
  mercadopago?: { apiUrl: string; accessToken: string; webhookSecret: string };
  /** Set when FACTURAPI_KEY is: receipts and facturas (CFDI 4.0) of payments in pesos. */
  facturapi?: { apiUrl: string; apiKey: string };
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
  /** Signs the Open Badges credentials (CREDENTIALS_SIGNING_KEY); unset only for commands, which sign nothing. */
  credentialsKey?: CredentialsKey;
  /** Signs what CxVet sends LMS platforms (LTI_SIGNING_KEY); unset only for commands. */
  ltiKey?: LtiKey;
  trustProxy: number;
  signInLimits: { perAccountAndIp: number; perAccount: number; perIp: number };
  /** Sign-ups per IP in 10 minutes: 2 × SIGN_IN_LIMIT_PER_MINUTE (20 by default; the end-to-end suite raises both). */
  signUpsPerTenMinutes: number;
  /** NODE_ENV=production: no development conveniences (the Vite origin, loopback aliases). */
  production: boolean;
  secureCookies: boolean;
  logLevel: string;
  /** Scheduled backups: daily on the embedded database, off on PostgreSQL (its operator's tools back it up). */
  backup: { dir: string; schedule: 'off' | 'hourly' | 'daily' | 'weekly'; keep: number };
  /**
   * The file of the deletion ledger (DELETION_LEDGER_PATH; unset: beside the backups); with STORAGE=s3 the ledger is in
   * the bucket instead.
   */
  deletionLedgerPath?: string;
  /** Shutdown drain: readiness answers 503 this long before the port closes (unset: 5 s on PostgreSQL, 0 on PGlite). */
  shutdownDrainMs?: number;
  /** The IANA zone whose clock spreadsheet and calendar dates show (SITE_TIME_ZONE). */
  timeZone: string;
  /** ffmpeg and ffprobe for the HLS ladders (unset: looked up, see findVideoTools); missing, videos play as uploaded. */
  ffmpegPath?: string;
  ffprobePath?: string;
};

/** PORT and HOST alone, read before anything touches DATA_DIR; undefined when invalid (loadConfig names the error). */
export function listenAddressOf(env: NodeJS.ProcessEnv = process.env): { port: number; host: string } | undefined {
  const parsed = envSchema.pick({ PORT: true, HOST: true }).safeParse(env);
  return parsed.success ? { port: parsed.data.PORT, host: parsed.data.HOST } : undefined;
}

/** Reads the environment once at start; a bad value stops the server with its name. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, command = false): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Configuración no válida: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, '');
  if (e.ADMIN_EMAIL && !e.ADMIN_PASSWORD) throw new Error('ADMIN_EMAIL necesita ADMIN_PASSWORD');
  const seedDemo = seedDemoFor(e);
  const paymentsProviders = paymentsProvidersFor({
    chosen: chosenProviders(e),
    production: e.NODE_ENV === 'production',
    seedDemo,
    allowSimulatedInProduction: e.ALLOW_SIMULATED_PAYMENTS_IN_PRODUCTION ?? false,
    why: whyProviderIsNeeded(e),
  });
  const paypalVars = [
    e.PAYPAL_CLIENT_ID,
    e.PAYPAL_CLIENT_SECRET,
    e.PAYPAL_PLAN_MONTHLY,
    e.PAYPAL_PLAN_ANNUAL,
    e.PAYPAL_WEBHOOK_ID,
  ];
  const paymentsProvider = paymentsProviders.includes('paypal') ? 'paypal' : 'simulado';
  if (paymentsProvider === 'paypal' && paypalVars.some((value) => !value)) {
    throw new Error(
      'PAYMENTS_PROVIDER=paypal necesita PAYPAL_CLIENT_ID, PAYPAL_CLIENT_SECRET, PAYPAL_PLAN_MONTHLY, PAYPAL_PLAN_ANNUAL y PAYPAL_WEBHOOK_ID',
    );
  }
  const mercadopago = paymentsProviders.includes('mercadopago') ? mercadoPagoSettingsFor(e) : undefined;
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
    seedDemo,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    contactEmail: e.CONTACT_EMAIL,
    certificatePlace: e.CERTIFICATE_PLACE,
    paymentsProviders,
    paymentsProvider,
    mercadopago,
    facturapi: e.FACTURAPI_KEY
      ? { apiUrl: (e.FACTURAPI_API_URL ?? 'https://www.facturapi.io/v2').replace(/\/$/, ''), apiKey: e.FACTURAPI_KEY }
      : undefined,
    paypal:
      paymentsProvider === 'paypal'
        ? {
            apiUrl: paypalApiUrlFor(e.PAYPAL_API_URL, e.NODE_ENV === 'production'),
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
    credentialsKey: credentialsKeyFor(e, dataDir, command),
    ltiKey: ltiKeyFor(e, dataDir, command),
    trustProxy: e.TRUST_PROXY,
    signInLimits: {
      perAccountAndIp: e.SIGN_IN_LIMIT_PER_MINUTE,
      perAccount: e.SIGN_IN_ACCOUNT_LIMIT_PER_MINUTE ?? Math.max(30, 3 * e.SIGN_IN_LIMIT_PER_MINUTE),
      perIp: e.SIGN_IN_IP_LIMIT_PER_MINUTE ?? Math.max(300, 30 * e.SIGN_IN_LIMIT_PER_MINUTE),
    },
    signUpsPerTenMinutes: 2 * e.SIGN_IN_LIMIT_PER_MINUTE,
    production: e.NODE_ENV === 'production',
    secureCookies: publicUrl.startsWith('https://'),
    logLevel: e.LOG_LEVEL,
    backup: {
      dir: path.resolve(e.BACKUP_DIR ?? path.join(dataDir, 'backups')),
      schedule: e.BACKUP_SCHEDULE ?? (e.DATABASE_URL ? 'off' : 'daily'),
      keep: e.BACKUP_KEEP,
    },
    deletionLedgerPath: deletionLedgerPathFor(e, dataDir),
    shutdownDrainMs: shutdownDrainMsFor(e),
    ffmpegPath: e.FFMPEG_PATH,
    timeZone: e.SITE_TIME_ZONE,
    ffprobePath: e.FFPROBE_PATH,
  };
}

/** Behind a load balancer (PostgreSQL: several instances) it must see readiness fail before the port closes. */
function shutdownDrainMsFor(e: z.infer<typeof envSchema>): number {
  return Math.round((e.SHUTDOWN_DRAIN_SECONDS ?? (e.DATABASE_URL ? 5 : 0)) * 1000);
}

/**
 * Production on PostgreSQL with local files: instances may each have their own DATA_DIR, and a restore replaces it,
 * so the ledger must be named, outside DATA_DIR, on a disk every instance shares.
 */
function deletionLedgerPathFor(e: z.infer<typeof envSchema>, dataDir: string): string | undefined {
  if (e.STORAGE === 's3') return undefined;
  const chosen = e.DELETION_LEDGER_PATH ? path.resolve(e.DELETION_LEDGER_PATH) : undefined;
  if (e.NODE_ENV !== 'production' || !e.DATABASE_URL) return chosen;
  if (!chosen) {
    throw new Error(
      'DELETION_LEDGER_PATH no está definido: en producción con PostgreSQL el registro de cuentas eliminadas va en un ' +
        'archivo fuera de DATA_DIR que compartan todas las instancias (por ejemplo /srv/cxvet-respaldos/cuentas-eliminadas.jsonl), o usa STORAGE=s3.',
    );
  }
  if (!path.relative(dataDir, chosen).startsWith('..')) {
    throw new Error(
      `DELETION_LEDGER_PATH (${chosen}) está dentro de DATA_DIR (${dataDir}): una restauración lo reemplazaría; ponlo fuera de DATA_DIR.`,
    );
  }
  return chosen;
}

/**
 * For the commands that take no payments (backup, restore, migrate, seed): payment settings are neither needed nor
 * checked, and the config they get names the simulated provider, which nothing they do calls.
 */
export function loadCommandConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const withoutPayments = Object.fromEntries(
    Object.entries(env).filter(
      ([name]) => !/^(PAYMENTS_PROVIDER|PAYPAL_|MERCADOPAGO_|ALLOW_SIMULATED_PAYMENTS)/.test(name),
    ),
  );
  return loadConfig(
    { ...withoutPayments, PAYMENTS_PROVIDER: 'simulado', ALLOW_SIMULATED_PAYMENTS_IN_PRODUCTION: '1' },
    true,
  );
}

/** Demo content (with its published password) is for a development start on the embedded database; others opt in with SEED_DEMO=1. */
function seedDemoFor(e: z.infer<typeof envSchema>): boolean {
  return e.SEED_DEMO ?? (!e.DATABASE_URL && e.NODE_ENV !== 'production');
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

function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, 'session-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
