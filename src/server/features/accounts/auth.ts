// minimal: the core without Kysely, which only its built-in database adapters use; ours is Drizzle's (~3 MB less heap)
import { betterAuth } from 'better-auth/minimal';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { hash, verify } from '@node-rs/argon2';
import { availableParallelism } from 'node:os';
import pLimit from 'p-limit';
import type { Db } from '#server/db/client.ts';
import { authAccounts, rateLimits, sessions, users, verifications } from '#server/db/schema/index.ts';
import { minPasswordLength } from '#shared/accounts/accounts.rules.ts';

// OWASP's argon2id floor: 19 MiB, two passes
export const argon2Options = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * argon2 runs on libuv's thread pool (UV_THREADPOOL_SIZE, 4 by default), as do file reads, zlib and the backup: a class
 * signing in at once would queue video reads and the report behind dozens of hashes, so two threads are left to them
 * (decision 047). Nor does it take every core: one is left to the event loop and the database, or every answer waits
 * for the hashes while a class signs in (decision 055).
 */
export const argon2AtOnce = (threads: number, cores: number) => Math.max(1, Math.min(threads - 2, cores - 1));
/** The hashes this process runs at once, read from its libuv pool and the machine's cores when it starts. */
export const argon2Work = pLimit(argon2AtOnce(Number(process.env.UV_THREADPOOL_SIZE ?? 4), availableParallelism()));

/** The header our server sets from the socket (or trusted proxy) address, replacing any client value. */
export const clientIpHeader = 'x-cxvet-client-ip';

export const maxPasswordLength = 128;

const sessionLifetimeSeconds = 7 * 24 * 3600;
/** However often a session is refreshed, it ends this long after sign-in. */
export const sessionAbsoluteLifetimeMs = 30 * 24 * 3600 * 1000;

export type AuthOptions = {
  db: Db;
  baseUrl: string;
  secret: string;
  secureCookies: boolean;
  trustedOrigins: string[];
  sendResetPassword: (data: { email: string; name: string; token: string }) => Promise<void>;
};

export function createAuth(options: AuthOptions) {
  return betterAuth({
    appName: 'CxVet',
    baseURL: options.baseUrl,
    basePath: '/api/auth',
    secret: options.secret,
    trustedOrigins: options.trustedOrigins,
    database: drizzleAdapter(options.db, {
      provider: 'pg',
      schema: {
        user: users,
        session: sessions,
        account: authAccounts,
        verification: verifications,
        rateLimit: rateLimits,
      },
    }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength,
      maxPasswordLength,
      autoSignIn: false,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 3600,
      password: {
        hash: (password) => argon2Work(() => hash(password, argon2Options)),
        verify: ({ hash: stored, password }) => argon2Work(() => verify(stored, password)),
      },
      sendResetPassword: ({ user, token }) => options.sendResetPassword({ email: user.email, name: user.name, token }),
    },
    user: { deleteUser: { enabled: false }, changeEmail: { enabled: false } },
    session: {
      expiresIn: sessionLifetimeSeconds,
      updateAge: 24 * 3600,
      // a cookie held by the browser cannot be dropped from another device: verified sessions are remembered on the
      // server instead, dropped through NOTIFY (accounts.service.ts, decision 040)
      cookieCache: { enabled: false },
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 100,
      customRules: {
        // only our login calls it, after its own limits (accounts.service.ts), which count an address's failures alone
        '/sign-in/email': false,
        '/request-password-reset': { window: 300, max: 5 },
        '/reset-password': { window: 300, max: 10 },
        '/change-password': { window: 300, max: 10 },
      },
    },
    advanced: {
      useSecureCookies: options.secureCookies,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: options.secureCookies },
      ipAddress: { ipAddressHeaders: [clientIpHeader] },
      database: { generateId: () => crypto.randomUUID() },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;
