import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  SignJWT,
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  type CryptoKey,
  type JSONWebKeySet,
  type JWK,
} from 'jose';

/** A score as the fake gradebook received it. */
type ReceivedScore = { lineItem: string; userId: string; scoreGiven: number; scoreMaximum: number; timestamp?: string };
type FakeMember = { user_id: string; name: string; email?: string; roles: string[]; status?: string };

const lti = 'https://purl.imsglobal.org/spec/lti/claim/';
const ims = 'https://purl.imsglobal.org/spec/';
const scopesSupported = [
  'https://purl.imsglobal.org/spec/lti-ags/scope/score',
  'https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
];

/**
 * What a platform refuses in a tool's registration (LTI Dynamic Registration 1.0, 3.3 and 3.6; the checks of Moodle's
 * registration_helper): null when the body is complete.
 */
function registrationProblem(body: Record<string, unknown>): string | null {
  const list = (value: unknown) => (Array.isArray(value) ? (value as unknown[]) : []);
  const isUrl = (value: unknown) => typeof value === 'string' && URL.canParse(value);
  if (body.application_type !== 'web') return 'application_type';
  if (!list(body.response_types).includes('id_token')) return 'response_types';
  const grants = list(body.grant_types);
  if (!grants.includes('implicit') || !grants.includes('client_credentials')) return 'grant_types';
  if (!isUrl(body.initiate_login_uri)) return 'initiate_login_uri';
  const redirects = list(body.redirect_uris);
  if (redirects.length === 0 || !redirects.every(isUrl)) return 'redirect_uris';
  if (!isUrl(body.jwks_uri)) return 'jwks_uri';
  if (body.token_endpoint_auth_method !== 'private_key_jwt') return 'token_endpoint_auth_method';
  if (typeof body.client_name !== 'string' || !body.client_name) return 'client_name';
  const scope = typeof body.scope === 'string' ? body.scope.split(' ') : [];
  if (!scope.every((item) => scopesSupported.includes(item))) return 'scope';
  const tool = body[`${ims}lti-tool-configuration`] as Record<string, unknown> | undefined;
  if (!tool || typeof tool.domain !== 'string' || !isUrl(tool.target_link_uri)) return 'lti-tool-configuration';
  const messages = list(tool.messages) as { type?: unknown; target_link_uri?: unknown }[];
  if (
    !messages.every(
      (message) => typeof message.type === 'string' && (!message.target_link_uri || isUrl(message.target_link_uri)),
    )
  ) {
    return 'messages';
  }
  return null;
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * An LMS for the tests: its RSA key made with jose, its JWKS, token, AGS and NRPS endpoints served on localhost. It
 * checks CxVet's client assertion against CxVet's JWKS, as a real platform does.
 */
export async function startFakePlatform(options: {
  port?: number;
  /** The name its URLs use (the end-to-end test serves it as localhost, a different site from CxVet's 127.0.0.1). */
  host?: string;
  clientId?: string;
  toolJwks: () => JSONWebKeySet;
  /** The tool's login initiation URL: /course frames it, as a course page of the LMS does. */
  toolLoginUrl?: string;
}) {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'plataforma-1', alg: 'RS256', use: 'sig' };
  const other = await generateKeyPair('RS256', { extractable: true });
  const otherJwk: JWK = { ...(await exportJWK(other.publicKey)), kid: 'plataforma-2', alg: 'RS256', use: 'sig' };
  const clientId = options.clientId ?? 'cxvet-client';
  const scores: ReceivedScore[] = [];
  const tokenRequests: string[] = [];
  const state = {
    members: [] as FakeMember[],
    down: false,
    /** What /jwks answers instead of the platform's one key: another set (a rotation), or no answer at all. */
    jwks: null as object | 'no-answer' | null,
    /** How many times /jwks was read. */
    jwksReads: 0,
    /** What the browser launch (/course, /auth) sends: the person and the link's claims. */
    launch: { sub: 'alumno-navegador', claims: {} as Record<string, unknown> },
  };
  const issuedTokens = new Set<string>();
  /** Dynamic registration: the bearer token it expects, what it answers, and the registrations it accepted. */
  const dynamic = {
    token: 'token-de-registro',
    /** Overrides the issuer its OpenID configuration names (a mismatch). */
    issuer: null as string | null,
    /** Answers without client_id (a broken platform). */
    omitClientId: false,
    /** Answers without a deployment id (the spec makes it optional; Canvas makes it at install). */
    omitDeploymentId: false,
    received: [] as Record<string, unknown>[],
    clientCount: 0,
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const send = (status: number, body: unknown, type = 'application/json') => {
        response.writeHead(status, { 'content-type': type });
        response.end(typeof body === 'string' ? body : JSON.stringify(body));
      };
      if (state.down && url.pathname !== '/jwks') return send(503, { error: 'mantenimiento' });
      if (url.pathname === '/jwks') {
        state.jwksReads += 1;
        if (state.jwks === 'no-answer') {
          // the headers and the start of a key set, then nothing more
          response.writeHead(200, { 'content-type': 'application/json' });
          return void response.write('{"keys":[');
        }
        return send(200, state.jwks ?? { keys: [jwk] });
      }
      if (url.pathname === '/course' && options.toolLoginUrl) {
        const login = new URL(options.toolLoginUrl);
        const params = {
          iss: issuer,
          login_hint: state.launch.sub,
          target_link_uri: options.toolLoginUrl,
          client_id: clientId,
          lti_deployment_id: 'despliegue-1',
        };
        for (const [name, value] of Object.entries(params)) login.searchParams.set(name, value);
        return send(
          200,
          `<!doctype html><title>Curso</title><h1>Curso de cirugía</h1><iframe title="CxVet" src="${login}" width="1000" height="600"></iframe>`,
          'text/html',
        );
      }
      if (url.pathname === '/auth') {
        // the platform's OIDC answer: the id_token form-posted to the tool's redirect_uri
        const token = await idToken({
          nonce: url.searchParams.get('nonce'),
          sub: state.launch.sub,
          ...state.launch.claims,
        });
        const action = url.searchParams.get('redirect_uri') ?? '';
        const stateValue = url.searchParams.get('state') ?? '';
        return send(
          200,
          `<!doctype html><form method="post" action="${action}"><input type="hidden" name="id_token" value="${token}"><input type="hidden" name="state" value="${stateValue}"></form><script>document.forms[0].submit()</script>`,
          'text/html',
        );
      }
      if (url.pathname === '/tool-registration') {
        // the LMS's 'Register tool by URL': frames the tool's URL and closes when it posts org.imsglobal.lti.close
        const target = new URL(url.searchParams.get('url') ?? '');
        target.searchParams.set('openid_configuration', `${issuer}/.well-known/openid-configuration`);
        target.searchParams.set('registration_token', dynamic.token);
        return send(
          200,
          `<!doctype html><meta charset="utf-8"><title>Herramientas</title><h1>Registrar herramienta</h1><p id="estado">Registrando…</p><iframe title="Registro" src="${target}" width="800" height="500"></iframe><script>window.addEventListener('message', function (event) { if (event.data && event.data.subject === 'org.imsglobal.lti.close') { document.getElementById('estado').textContent = 'Registro terminado'; document.querySelector('iframe').remove(); } });</script>`,
          'text/html',
        );
      }
      if (url.pathname === '/lms/.well-known/openid-configuration') {
        return send(200, {
          issuer: dynamic.issuer ?? issuer,
          authorization_endpoint: `${base}/auth`,
          token_endpoint: `${base}/token`,
          jwks_uri: `${base}/jwks`,
          registration_endpoint: `${base}/register`,
          scopes_supported: ['openid', ...scopesSupported],
          response_types_supported: ['id_token'],
          id_token_signing_alg_values_supported: ['RS256'],
          claims_supported: ['iss', 'sub', 'name', 'given_name', 'family_name', 'email'],
          [`${ims}lti-platform-configuration`]: {
            product_family_code: 'moodle',
            version: '4.5',
            messages_supported: [{ type: 'LtiResourceLinkRequest' }, { type: 'LtiDeepLinkingRequest' }],
          },
        });
      }
      if (url.pathname === '/register' && request.method === 'POST') {
        if (request.headers.authorization !== `Bearer ${dynamic.token}`) return send(401, { error: 'invalid_token' });
        if (!String(request.headers['content-type']).startsWith('application/json')) return send(415, {});
        const body = JSON.parse(await bodyOf(request)) as Record<string, unknown>;
        const problem = registrationProblem(body);
        if (problem) return send(400, { error: 'invalid_client_metadata', error_description: problem });
        dynamic.received.push(body);
        dynamic.clientCount += 1;
        const tool = body[`${ims}lti-tool-configuration`] as Record<string, unknown>;
        return send(200, {
          ...(dynamic.omitClientId ? {} : { client_id: `cliente-dinamico-${dynamic.clientCount}` }),
          ...body,
          [`${ims}lti-tool-configuration`]: dynamic.omitDeploymentId
            ? tool
            : { ...tool, deployment_id: `despliegue-dinamico-${dynamic.clientCount}` },
        });
      }
      if (url.pathname === '/token' && request.method === 'POST') {
        const form = new URLSearchParams(await bodyOf(request));
        try {
          await jwtVerify(form.get('client_assertion') ?? '', createLocalJWKSet(options.toolJwks()), {
            issuer: clientId,
            subject: clientId,
            audience: `${base}/token`,
          });
        } catch {
          return send(401, { error: 'invalid_client' });
        }
        tokenRequests.push(form.get('scope') ?? '');
        const token = crypto.randomUUID();
        issuedTokens.add(token);
        return send(200, { access_token: token, token_type: 'Bearer', expires_in: 3600, scope: form.get('scope') });
      }
      const bearer = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
      if (!issuedTokens.has(bearer)) return send(401, { error: 'sin token' });
      const scoreMatch = /^\/lineitems\/([^/]+)\/scores$/.exec(url.pathname);
      if (scoreMatch && request.method === 'POST') {
        if (request.headers['content-type'] !== 'application/vnd.ims.lis.v1.score+json') return send(415, {});
        const score = JSON.parse(await bodyOf(request)) as Omit<ReceivedScore, 'lineItem'>;
        scores.push({ lineItem: scoreMatch[1]!, ...score });
        return send(204, '');
      }
      if (url.pathname === '/memberships') {
        const page = Number(url.searchParams.get('page') ?? '1');
        const pageSize = 2;
        const slice = state.members.slice((page - 1) * pageSize, page * pageSize);
        if (page * pageSize < state.members.length) {
          response.setHeader('link', `<${base}/memberships?page=${page + 1}>; rel="next"`);
        }
        return send(
          200,
          { id: `${base}/memberships`, context: { id: 'curso-1' }, members: slice },
          'application/vnd.ims.lti-nrps.v2.membershipcontainer+json',
        );
      }
      send(404, {});
    })().catch(() => {
      response.writeHead(500);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const base = `http://${options.host ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`;
  const issuer = `${base}/lms`;

  /** A launch id_token; `sign` swaps the key (a wrong signature), the rest overrides claims. */
  async function idToken(
    claims: Record<string, unknown>,
    sign: {
      key?: CryptoKey;
      kid?: string;
      expiresIn?: string | number;
      issuedAt?: number;
      audience?: string | string[];
    } = {},
  ) {
    const payload = {
      [`${lti}message_type`]: 'LtiResourceLinkRequest',
      [`${lti}version`]: '1.3.0',
      [`${lti}deployment_id`]: 'despliegue-1',
      [`${lti}target_link_uri`]: 'http://localhost:3000/api/lti/launch',
      [`${lti}resource_link`]: { id: 'enlace-1', title: 'Actividad' },
      [`${lti}roles`]: ['http://purl.imsglobal.org/vocab/lis/v2/membership#Learner'],
      [`${lti}context`]: { id: 'curso-1', title: 'Cirugía I' },
      'https://purl.imsglobal.org/spec/lti-ags/claim/endpoint': {
        scope: ['https://purl.imsglobal.org/spec/lti-ags/scope/score'],
        lineitem: `${base}/lineitems/1`,
      },
      'https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice': {
        context_memberships_url: `${base}/memberships`,
        service_versions: ['2.0'],
      },
      ...claims,
    };
    const jwt = new SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', kid: sign.kid ?? 'plataforma-1' })
      .setIssuer(issuer)
      .setAudience(sign.audience ?? clientId)
      .setIssuedAt(sign.issuedAt)
      .setExpirationTime(sign.expiresIn ?? '5m');
    return jwt.sign(sign.key ?? privateKey);
  }

  return {
    base,
    issuer,
    clientId,
    otherKey: other.privateKey,
    /** The public half of otherKey, as kid 'plataforma-2' (a rotation's new key). */
    otherJwk,
    /** The platform's own public key, as its JWKS lists it. */
    jwk,
    registration: {
      name: 'Moodle de prueba',
      issuer,
      clientId,
      deploymentIds: ['despliegue-1'],
      authorizationUrl: `${base}/auth`,
      tokenUrl: `${base}/token`,
      jwksUrl: `${base}/jwks`,
    },
    idToken,
    dynamic,
    openIdConfigurationUrl: `${issuer}/.well-known/openid-configuration`,
    scores,
    tokenRequests,
    /** The access tokens it handed out. */
    accessTokens: issuedTokens,
    state,
    /** Checks a deep-linking answer as the platform would: signed by the tool, for this platform. */
    async readDeepLinkingResponse(jwt: string) {
      const { payload } = await jwtVerify(jwt, createLocalJWKSet(options.toolJwks()), {
        issuer: clientId,
        audience: issuer,
      });
      return payload;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type FakePlatform = Awaited<ReturnType<typeof startFakePlatform>>;
