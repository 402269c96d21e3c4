import type { FastifyInstance } from 'fastify';
import type { Config } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import { ltiPlatforms } from '#server/db/schema/index.ts';
import type { Auth } from '#server/features/accounts/auth.ts';
import type { AccountsService } from '#server/features/accounts/accounts.service.ts';
import type { ClassroomMembersService } from '#server/features/classrooms/classroom-members.service.ts';
import { createLtiAccounts, hasLaunchCookie, launchCookieAsSession } from './lti-accounts.ts';
import { createLtiGrades, ltiJobKinds } from './lti-grades.ts';
import { createLtiLaunch } from './lti-launch.ts';
import { toolUrls } from './lti-platforms.admin.ts';
import { createLtiRoster } from './lti-roster.ts';
import { createLtiRegistration } from './lti-registration.ts';
import { registerLtiRegistrationRoutes, registrationFramer } from './lti-registration.routes.ts';
import { createLtiServices } from './lti-services.ts';
import { createLtiTargets } from './lti-targets.ts';
import { registerLtiRoutes } from './lti.routes.ts';

type Schedule = (kind: string, options: { payload: object; uniqueKey?: string }) => Promise<void>;

/** Registered platforms' origins are read at most this often per instance (an Admin's change shows within it). */
const originsTtlMs = 60_000;

/** CxVet as an LTI 1.3 tool: launch, accounts, deep linking, grades and rosters. */
export function createLti(deps: {
  db: Db;
  auth: Auth;
  accounts: AccountsService;
  config: Config;
  members: ClassroomMembersService;
  schedule: Schedule;
}) {
  const { db, config } = deps;
  const key = config.ltiKey;
  const urls = toolUrls(config.publicUrl);
  const launch = createLtiLaunch({ db, launchUrl: urls.launchUrl });
  const ltiAccounts = createLtiAccounts({
    db,
    auth: deps.auth,
    secret: config.sessionSecret,
    secureCookies: config.secureCookies,
  });
  const targets = key ? createLtiTargets({ db, key, publicUrl: config.publicUrl }) : null;
  const services = targets && key ? createLtiServices({ signingKey: targets.signingKey, kid: key.kid }) : null;
  const grades = services ? createLtiGrades({ db, services, schedule: deps.schedule }) : null;
  const roster = services ? createLtiRoster({ db, services, members: deps.members }) : null;

  let origins: { list: string[]; until: number } | null = null;
  async function platformOrigins(): Promise<string[]> {
    if (origins && origins.until > Date.now()) return origins.list;
    const rows = await db
      .select({ issuer: ltiPlatforms.issuer, authorizationUrl: ltiPlatforms.authorizationUrl })
      .from(ltiPlatforms);
    const list = [
      ...new Set(rows.flatMap((row) => [row.issuer, row.authorizationUrl]).flatMap((url) => originOf(url) ?? [])),
    ];
    origins = { list, until: Date.now() + originsTtlMs };
    return list;
  }

  const platformsChanged = () => void (origins = null);
  const registration = key
    ? createLtiRegistration({
        db,
        urls,
        publicUrl: config.publicUrl,
        production: config.production,
        platformsChanged,
      })
    : null;

  return {
    db,
    key,
    urls,
    registration,
    launch,
    accounts: ltiAccounts,
    targets,
    grades,
    roster,
    platformOrigins,
    platformsChanged,
    signIn: deps.accounts.login,
    auth: deps.auth,
    sessionSecret: config.sessionSecret,
    publicUrl: config.publicUrl,
    secureCookies: config.secureCookies,
  };
}

export type Lti = ReturnType<typeof createLti>;

function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/** The job handlers of LTI, for the main runner (`lti` is read when a job runs, after the app is built). */
export function ltiJobHandlers(lti: () => Lti) {
  return {
    [ltiJobKinds.collect]: async () => void (await lti().grades?.collect()),
    [ltiJobKinds.send]: async ({ scoreId }: { scoreId: string }, run: { attempts: number }) =>
      lti().grades?.send(scoreId, run),
    [ltiJobKinds.rosters]: async () => lti().roster?.syncAll(),
  };
}

/**
 * The launch cookie read as the session, and pages of a launch framed by the registered platforms only: every
 * other page keeps `frame-ancestors 'none'`.
 */
export function registerLti(app: FastifyInstance, lti: Lti): void {
  app.addHook('onRequest', async (request) => launchCookieAsSession(request, lti.secureCookies));
  app.addHook('onSend', async (request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    if (!type.startsWith('text/html')) return payload;
    if (!hasLaunchCookie(request) && !request.url.startsWith('/api/lti/')) return payload;
    // the registration page is framed by the LMS registering us, which is no platform of ours yet
    const framer = registrationFramer(request);
    const allowed = framer ? [framer] : await lti.platformOrigins();
    const policy = reply.raw.getHeader('content-security-policy');
    if (typeof policy === 'string' && allowed.length > 0) {
      reply.raw.setHeader(
        'content-security-policy',
        policy.replace("frame-ancestors 'none'", `frame-ancestors ${allowed.join(' ')}`),
      );
      reply.raw.removeHeader('x-frame-options');
    }
    return payload;
  });
  registerLtiRoutes(app, lti);
  registerLtiRegistrationRoutes(app, lti);
}
