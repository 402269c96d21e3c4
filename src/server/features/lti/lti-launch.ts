import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import {
  createRemoteJWKSet,
  customFetch,
  decodeProtectedHeader,
  errors as joseErrors,
  jwtVerify,
  type JWTPayload,
} from 'jose';
import type { Db } from '#server/db/client.ts';
import { ltiLaunchStates, ltiPlatforms } from '#server/db/schema/index.ts';
import { claims, messageTypes } from './lti-claims.ts';

export type Platform = typeof ltiPlatforms.$inferSelect;

/** Why a launch was refused; each has its Spanish page (lti-pages.ts). */
export type LaunchRefusal =
  | 'plataforma-desconocida'
  | 'despliegue-desconocido'
  | 'estado-invalido'
  | 'inicio-repetido'
  | 'inicio-vencido'
  | 'firma-invalida'
  | 'token-vencido'
  | 'audiencia-invalida'
  | 'nonce-invalido'
  | 'mensaje-invalido';

export class LaunchRefused extends Error {
  constructor(readonly reason: LaunchRefusal) {
    super(reason);
  }
}

/** A login initiation is good for this long: the platform answers within seconds. */
const stateLifetimeMs = 10 * 60_000;
/** An id_token older than this is refused whatever its exp says. */
const maxTokenAgeSeconds = 5 * 60;
const clockToleranceSeconds = 30;
/** Every request to a platform ends within this time: a slow LMS never holds a request of ours. */
export const platformTimeoutMs = 5_000;
/** A platform's key set is a few keys: a bigger answer (10 000 keys, or no end) is refused while it streams. */
const maxJwksBytes = 256 * 1024;

/**
 * A platform's answer as text, refused once it passes `maxBytes` as it arrives: a chunked answer declares no length,
 * and reading it whole first would hold all of it in memory.
 */
export async function cappedText(response: Response, maxBytes: number): Promise<string> {
  if (Number(response.headers.get('content-length') ?? '0') > maxBytes || !response.body) {
    await response.body?.cancel();
    if (response.body) throw new Error('answer too large');
    return '';
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks).toString('utf8');
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error('answer too large');
    }
    chunks.push(value);
  }
}

/** jose's fetch of a key set, with the answer capped (its own is read whole). */
async function cappedJwksFetch(url: string, init: RequestInit): Promise<Response> {
  const response = await fetch(url, init);
  if (response.status !== 200) {
    await response.body?.cancel();
    return response;
  }
  const text = await cappedText(response, maxJwksBytes);
  return new Response(text, { status: 200, headers: { 'content-type': 'application/json' } });
}

export type LoginInitiation = {
  iss: string;
  login_hint: string;
  target_link_uri: string;
  lti_message_hint?: string;
  client_id?: string;
  lti_deployment_id?: string;
};

export function createLtiLaunch(deps: { db: Db; launchUrl: string }) {
  const { db } = deps;
  const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

  function keySetOf(platform: Platform) {
    let set = keySets.get(platform.jwksUrl);
    if (!set) {
      set = createRemoteJWKSet(new URL(platform.jwksUrl), {
        timeoutDuration: platformTimeoutMs,
        cooldownDuration: 30_000,
        cacheMaxAge: 10 * 60_000,
        [customFetch]: cappedJwksFetch,
      });
      keySets.set(platform.jwksUrl, set);
    }
    return set;
  }

  async function platformFor(iss: string, clientId?: string): Promise<Platform> {
    const rows = await db.select().from(ltiPlatforms).where(eq(ltiPlatforms.issuer, iss));
    const found = clientId ? rows.filter((row) => row.clientId === clientId) : rows;
    // an issuer with several client ids must name the one it means
    if (found.length !== 1) throw new LaunchRefused('plataforma-desconocida');
    return found[0]!;
  }

  /** OIDC third-party login initiation: the state and nonce go in the database, the browser to the platform. */
  async function initiate(input: LoginInitiation): Promise<string> {
    const platform = await platformFor(input.iss, input.client_id);
    if (input.lti_deployment_id && !platform.deploymentIds.includes(input.lti_deployment_id)) {
      throw new LaunchRefused('despliegue-desconocido');
    }
    const state = randomBytes(24).toString('base64url');
    const nonce = randomBytes(24).toString('base64url');
    await db.delete(ltiLaunchStates).where(lt(ltiLaunchStates.expiresAt, new Date(Date.now() - stateLifetimeMs)));
    await db
      .insert(ltiLaunchStates)
      .values({ state, nonce, platformId: platform.id, expiresAt: new Date(Date.now() + stateLifetimeMs) });
    const url = new URL(platform.authorizationUrl);
    const params: Record<string, string> = {
      scope: 'openid',
      response_type: 'id_token',
      response_mode: 'form_post',
      prompt: 'none',
      client_id: platform.clientId,
      redirect_uri: deps.launchUrl,
      login_hint: input.login_hint,
      state,
      nonce,
      ...(input.lti_message_hint ? { lti_message_hint: input.lti_message_hint } : {}),
    };
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
    return url.toString();
  }

  /** Marks the state used, once; a second use or a late one is told apart for the page. */
  async function consumeState(state: string) {
    const [used] = await db
      .update(ltiLaunchStates)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(ltiLaunchStates.state, state),
          isNull(ltiLaunchStates.usedAt),
          gt(ltiLaunchStates.expiresAt, new Date()),
        ),
      )
      .returning();
    if (used) return used;
    const [known] = await db.select().from(ltiLaunchStates).where(eq(ltiLaunchStates.state, state));
    if (!known) throw new LaunchRefused('estado-invalido');
    throw new LaunchRefused(known.usedAt ? 'inicio-repetido' : 'inicio-vencido');
  }

  /** The id_token checked fully: signature, iss, aud, azp, exp, iat, nonce (once), deployment, message type, version. */
  async function verify(input: { idToken: string; state: string }): Promise<{ platform: Platform; token: JWTPayload }> {
    const stored = await consumeState(input.state);
    const [platform] = await db.select().from(ltiPlatforms).where(eq(ltiPlatforms.id, stored.platformId));
    if (!platform) throw new LaunchRefused('plataforma-desconocida');
    try {
      if (decodeProtectedHeader(input.idToken).alg !== 'RS256') throw new LaunchRefused('firma-invalida');
    } catch (error) {
      if (error instanceof LaunchRefused) throw error;
      throw new LaunchRefused('firma-invalida');
    }
    let token: JWTPayload;
    try {
      ({ payload: token } = await jwtVerify(input.idToken, keySetOf(platform), {
        algorithms: ['RS256'],
        issuer: platform.issuer,
        audience: platform.clientId,
        maxTokenAge: maxTokenAgeSeconds,
        clockTolerance: clockToleranceSeconds,
        requiredClaims: ['sub', 'exp', 'iat', 'nonce'],
      }));
    } catch (error) {
      throw new LaunchRefused(refusalOf(error));
    }
    const audiences = Array.isArray(token.aud) ? token.aud : [token.aud];
    // an audience beside us is one we do not trust (Security Framework 5.1.3, 3); an azp present must name us (5)
    if (audiences.some((audience) => audience !== platform.clientId)) throw new LaunchRefused('audiencia-invalida');
    if (token.azp !== undefined && token.azp !== platform.clientId) throw new LaunchRefused('audiencia-invalida');
    if (token.nonce !== stored.nonce) throw new LaunchRefused('nonce-invalido');
    const deploymentId = token[claims.deploymentId];
    if (typeof deploymentId !== 'string' || !platform.deploymentIds.includes(deploymentId)) {
      throw new LaunchRefused('despliegue-desconocido');
    }
    if (token[claims.version] !== '1.3.0') throw new LaunchRefused('mensaje-invalido');
    const type = token[claims.messageType];
    if (type === messageTypes.resourceLink) {
      const link = token[claims.resourceLink] as { id?: unknown } | undefined;
      if (typeof link?.id !== 'string' || !link.id) throw new LaunchRefused('mensaje-invalido');
    } else if (type === messageTypes.deepLinking) {
      const settings = token[claims.deepLinkingSettings] as { deep_link_return_url?: unknown } | undefined;
      if (typeof settings?.deep_link_return_url !== 'string') throw new LaunchRefused('mensaje-invalido');
    } else {
      throw new LaunchRefused('mensaje-invalido');
    }
    if (typeof token.sub !== 'string' || !token.sub) throw new LaunchRefused('mensaje-invalido');
    if (!Array.isArray(token[claims.roles])) throw new LaunchRefused('mensaje-invalido');
    return { platform, token };
  }

  return { initiate, verify, platformFor };
}

function refusalOf(error: unknown): LaunchRefusal {
  if (error instanceof joseErrors.JWTExpired) return 'token-vencido';
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') return 'audiencia-invalida';
    if (error.claim === 'iat') return 'token-vencido';
    if (error.claim === 'iss') return 'plataforma-desconocida';
    return 'mensaje-invalido';
  }
  return 'firma-invalida';
}
