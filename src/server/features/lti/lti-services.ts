import { SignJWT, type CryptoKey } from 'jose';
import { scopes } from './lti-claims.ts';
import { cappedText, platformTimeoutMs, type Platform } from './lti-launch.ts';

export type RosterMember = {
  sub: string;
  name: string;
  email: string | null;
  roles: string[];
  active: boolean;
};

/** Pages of a roster we follow at most: a course of 100 000 is not one of ours. */
const maxRosterPages = 50;

/** A token answer is a few hundred bytes; a roster page may hold a whole course (Moodle pages none by default). */
const maxTokenBytes = 64 * 1024;
const maxRosterPageBytes = 4 * 1024 * 1024;

/** A platform answered badly: the job retries with backoff. */
class PlatformError extends Error {}

async function readJson(response: Response, maxBytes: number): Promise<unknown> {
  try {
    return JSON.parse(await cappedText(response, maxBytes)) as unknown;
  } catch {
    throw new PlatformError(
      `${new URL(response.url || 'http://plataforma').host} respondió algo que no es JSON válido`,
    );
  }
}

async function call(url: string, init: RequestInit): Promise<Response> {
  const response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(platformTimeoutMs) });
  if (!response.ok) {
    throw new PlatformError(`${init.method ?? 'GET'} ${new URL(url).host} respondió ${response.status}`);
  }
  return response;
}

/** AGS and NRPS calls, each with a token from the platform (client credentials, signed JWT assertion). */
export function createLtiServices(deps: { signingKey: Promise<CryptoKey>; kid: string }) {
  async function accessToken(platform: Platform, scope: string): Promise<string> {
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: deps.kid, typ: 'JWT' })
      .setIssuer(platform.clientId)
      .setSubject(platform.clientId)
      .setAudience(platform.tokenUrl)
      .setIssuedAt()
      .setExpirationTime('5m')
      .setJti(crypto.randomUUID())
      .sign(await deps.signingKey);
    const response = await call(platform.tokenUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: assertion,
        scope,
      }),
    });
    const body = (await readJson(response, maxTokenBytes)) as { access_token?: unknown } | null;
    if (typeof body?.access_token !== 'string') throw new PlatformError('el token de la plataforma no llegó');
    return body.access_token;
  }

  /** Posts a score to the line item's /scores (AGS 2.0). */
  async function postScore(
    platform: Platform,
    lineItemUrl: string,
    score: { sub: string; given: number; maximum: number; comment: string; timestamp: Date },
  ) {
    const token = await accessToken(platform, scopes.score);
    const url = new URL(lineItemUrl);
    url.pathname = `${url.pathname.replace(/\/$/, '')}/scores`;
    await call(url.toString(), {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/vnd.ims.lis.v1.score+json' },
      body: JSON.stringify({
        userId: score.sub,
        scoreGiven: score.given,
        scoreMaximum: score.maximum,
        comment: score.comment,
        timestamp: score.timestamp.toISOString(),
        activityProgress: 'Completed',
        gradingProgress: 'FullyGraded',
      }),
    });
  }

  /** The course roster (NRPS 2.0), following `next` links. */
  async function members(platform: Platform, membershipsUrl: string): Promise<RosterMember[]> {
    const token = await accessToken(platform, scopes.memberships);
    const out: RosterMember[] = [];
    let next: string | null = membershipsUrl;
    for (let page = 0; next && page < maxRosterPages; page += 1) {
      const response = await call(next, {
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/vnd.ims.lti-nrps.v2.membershipcontainer+json',
        },
      });
      const body = (await readJson(response, maxRosterPageBytes)) as { members?: unknown } | null;
      const list = Array.isArray(body?.members) ? body.members : [];
      for (const member of list as Record<string, unknown>[]) {
        if (typeof member.user_id !== 'string') continue;
        out.push({
          sub: member.user_id,
          name: typeof member.name === 'string' ? member.name : '',
          email: typeof member.email === 'string' ? member.email.toLowerCase() : null,
          roles: Array.isArray(member.roles) ? member.roles.filter((role) => typeof role === 'string') : [],
          active: member.status === undefined || member.status === 'Active',
        });
      }
      next = /<([^>]+)>;\s*rel="next"/.exec(response.headers.get('link') ?? '')?.[1] ?? null;
    }
    return out;
  }

  return { postScore, members };
}

export type LtiServices = ReturnType<typeof createLtiServices>;
