import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '#server/db/client.ts';
import { ltiPlatforms, ltiRegistrationTokens } from '#server/db/schema/index.ts';
import { messageTypes, scopes } from './lti-claims.ts';
import { cappedText, platformTimeoutMs } from './lti-launch.ts';
import type { toolUrls } from './lti-platforms.admin.ts';

/** A registration URL is good for this long: the Admin pastes it into the LMS right away. */
const registrationLifetimeMs = 24 * 3600_000;
/** The platform's answers are small JSON documents; anything larger is refused unread. */
const maxAnswerBytes = 64 * 1024;

const platformConfigurationClaim = 'https://purl.imsglobal.org/spec/lti-platform-configuration';
const toolConfigurationClaim = 'https://purl.imsglobal.org/spec/lti-tool-configuration';

/** Why a registration was refused; each has its Spanish text on the page the LMS shows. */
export type RegistrationRefusal =
  | 'enlace-desconocido'
  | 'enlace-usado'
  | 'enlace-vencido'
  | 'configuracion-invalida'
  | 'configuracion-inaccesible'
  | 'emisor-distinto'
  | 'url-insegura'
  | 'registro-rechazado'
  | 'registro-sin-cliente'
  | 'plataforma-repetida';

export class RegistrationRefused extends Error {
  constructor(readonly reason: RegistrationRefusal) {
    super(reason);
  }
}

const url = z.string().min(1).max(2000);
/** The platform's OpenID configuration (LTI Dynamic Registration 1.0, 3.4 and 3.5.1): what we use of it. */
const openIdConfigurationSchema = z.object({
  issuer: url,
  authorization_endpoint: url,
  token_endpoint: url,
  jwks_uri: url,
  registration_endpoint: url,
  [platformConfigurationClaim]: z.object({ product_family_code: z.string().min(1).max(200) }),
});
/** The platform's answer to our client registration (3.6): client_id is what it assigned us. */
const registrationAnswerSchema = z.object({
  client_id: z.string().min(1).max(500),
  [toolConfigurationClaim]: z.object({ deployment_id: z.string().min(1).max(500).optional() }).optional(),
});

const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');

/** A product family code as people say it. */
function productName(code: string): string {
  const known: Record<string, string> = {
    moodle: 'Moodle',
    canvas: 'Canvas',
    chamilo: 'Chamilo',
    blackboard: 'Blackboard',
    brightspace: 'Brightspace',
    desire2learn: 'Brightspace',
    sakai: 'Sakai',
  };
  return known[code.toLowerCase()] ?? code.slice(0, 60);
}

async function readJson(response: Response): Promise<unknown> {
  return JSON.parse(await cappedText(response, maxAnswerBytes)) as unknown;
}

/**
 * LTI Dynamic Registration 1.0: the Admin makes a one-time URL for an organization; the LMS opens it with its
 * `openid_configuration` (and `registration_token`); we read the platform's configuration, register ourselves at its
 * `registration_endpoint`, and keep the platform as a hand-entered one.
 */
export function createLtiRegistration(deps: {
  db: Db;
  urls: ReturnType<typeof toolUrls>;
  publicUrl: string;
  production: boolean;
  platformsChanged: () => void;
}) {
  const { db } = deps;

  /** http(s) only; https in production. */
  function checkedUrl(value: string): URL {
    let parsed: URL;
    try {
      parsed = new URL(value);
    } catch {
      throw new RegistrationRefused('configuracion-invalida');
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new RegistrationRefused('url-insegura');
    if (deps.production && parsed.protocol !== 'https:') throw new RegistrationRefused('url-insegura');
    if (parsed.username || parsed.password) throw new RegistrationRefused('configuracion-invalida');
    return parsed;
  }

  /** A new one-time registration URL for the organization; only its hash is stored. */
  async function create(organizationId: string, createdBy: string) {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(Date.now() + registrationLifetimeMs);
    await db.delete(ltiRegistrationTokens).where(lt(ltiRegistrationTokens.expiresAt, new Date()));
    await db.insert(ltiRegistrationTokens).values({ tokenHash: hashOf(token), organizationId, createdBy, expiresAt });
    return { url: `${deps.publicUrl}/api/lti/register/${token}`, expiresAt: expiresAt.toISOString() };
  }

  /** Spends the URL in one statement, so two openings at once register once; tells a used one from a late one. */
  async function claim(token: string) {
    const tokenHash = hashOf(token);
    const [row] = await db
      .update(ltiRegistrationTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(ltiRegistrationTokens.tokenHash, tokenHash),
          isNull(ltiRegistrationTokens.usedAt),
          gt(ltiRegistrationTokens.expiresAt, new Date()),
        ),
      )
      .returning();
    if (row) return row;
    const [known] = await db.select().from(ltiRegistrationTokens).where(eq(ltiRegistrationTokens.tokenHash, tokenHash));
    if (!known) throw new RegistrationRefused('enlace-desconocido');
    throw new RegistrationRefused(known.usedAt ? 'enlace-usado' : 'enlace-vencido');
  }

  /** A registration that failed before storing anything gives its URL back, while it lasts. */
  async function release(tokenHash: string) {
    await db
      .update(ltiRegistrationTokens)
      .set({ usedAt: null })
      .where(and(eq(ltiRegistrationTokens.tokenHash, tokenHash), isNull(ltiRegistrationTokens.platformId)));
  }

  async function fetchConfiguration(configurationUrl: URL) {
    let body: unknown;
    try {
      const response = await fetch(configurationUrl, {
        headers: { accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(platformTimeoutMs),
      });
      if (!response.ok) throw new Error(`status ${response.status}`);
      body = await readJson(response);
    } catch {
      throw new RegistrationRefused('configuracion-inaccesible');
    }
    const parsed = openIdConfigurationSchema.safeParse(body);
    if (!parsed.success) throw new RegistrationRefused('configuracion-invalida');
    const configuration = parsed.data;
    // 3.5.1: the issuer is the configuration URL's origin, and its path a prefix of the URL's path
    const issuer = checkedUrl(configuration.issuer);
    const issuerPath = issuer.pathname.replace(/\/$/, '');
    if (
      issuer.origin !== configurationUrl.origin ||
      issuer.search ||
      issuer.hash ||
      !(configurationUrl.pathname === issuerPath || configurationUrl.pathname.startsWith(`${issuerPath}/`))
    ) {
      throw new RegistrationRefused('emisor-distinto');
    }
    for (const endpoint of [
      configuration.authorization_endpoint,
      configuration.token_endpoint,
      configuration.jwks_uri,
      configuration.registration_endpoint,
    ]) {
      checkedUrl(endpoint);
    }
    return configuration;
  }

  /** Our client registration (3.3 and 3.6): what the platform needs to launch us and let us use its services. */
  function clientRegistration() {
    const domain = new URL(deps.publicUrl).host;
    return {
      application_type: 'web',
      response_types: ['id_token'],
      grant_types: ['implicit', 'client_credentials'],
      initiate_login_uri: deps.urls.loginUrl,
      redirect_uris: [deps.urls.launchUrl],
      client_name: 'CxVet',
      jwks_uri: deps.urls.jwksUrl,
      logo_uri: `${deps.publicUrl}/favicon.svg`,
      token_endpoint_auth_method: 'private_key_jwt',
      scope: [scopes.score, scopes.memberships].join(' '),
      [toolConfigurationClaim]: {
        domain,
        target_link_uri: deps.urls.launchUrl,
        description: 'Procedimientos, aulas y diplomados de cirugía veterinaria.',
        claims: ['iss', 'sub', 'name', 'given_name', 'family_name', 'email'],
        messages: [
          { type: messageTypes.resourceLink, target_link_uri: deps.urls.launchUrl, label: 'CxVet' },
          {
            type: messageTypes.deepLinking,
            target_link_uri: deps.urls.deepLinkingUrl,
            label: 'Agregar contenido de CxVet',
          },
        ],
      },
    };
  }

  async function postRegistration(endpoint: string, registrationToken: string | undefined) {
    let response: Response;
    try {
      response = await fetch(endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          ...(registrationToken ? { authorization: `Bearer ${registrationToken}` } : {}),
        },
        body: JSON.stringify(clientRegistration()),
        redirect: 'error',
        signal: AbortSignal.timeout(platformTimeoutMs),
      });
    } catch {
      throw new RegistrationRefused('registro-rechazado');
    }
    if (!response.ok) throw new RegistrationRefused('registro-rechazado');
    let body: unknown;
    try {
      body = await readJson(response);
    } catch {
      throw new RegistrationRefused('registro-sin-cliente');
    }
    const parsed = registrationAnswerSchema.safeParse(body);
    if (!parsed.success) throw new RegistrationRefused('registro-sin-cliente');
    return parsed.data;
  }

  /** The LMS opened the URL: registers CxVet with it and stores the platform in the URL's organization. */
  async function register(input: { token: string; openidConfiguration: string; registrationToken?: string }) {
    const configurationUrl = checkedUrl(input.openidConfiguration);
    const claimed = await claim(input.token);
    try {
      const configuration = await fetchConfiguration(configurationUrl);
      const answer = await postRegistration(configuration.registration_endpoint, input.registrationToken);
      const deploymentId = answer[toolConfigurationClaim]?.deployment_id;
      const issuer = configuration.issuer.replace(/\/$/, '');
      const product = productName(configuration[platformConfigurationClaim].product_family_code);
      const [platform] = await db
        .insert(ltiPlatforms)
        .values({
          name: `${product} (${new URL(issuer).host})`.slice(0, 200),
          issuer,
          clientId: answer.client_id,
          deploymentIds: deploymentId ? [deploymentId] : [],
          authorizationUrl: configuration.authorization_endpoint,
          tokenUrl: configuration.token_endpoint,
          jwksUrl: configuration.jwks_uri,
          organizationId: claimed.organizationId,
        })
        .onConflictDoNothing()
        .returning();
      if (!platform) throw new RegistrationRefused('plataforma-repetida');
      await db
        .update(ltiRegistrationTokens)
        .set({ platformId: platform.id })
        .where(eq(ltiRegistrationTokens.tokenHash, claimed.tokenHash));
      deps.platformsChanged();
      return { platform, deploymentMissing: !deploymentId };
    } catch (error) {
      await release(claimed.tokenHash);
      throw error;
    }
  }

  return { create, register, clientRegistration, checkedUrl };
}

export type LtiRegistration = ReturnType<typeof createLtiRegistration>;
