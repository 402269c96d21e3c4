import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { createClassroom, signedInAs } from '#server/testing/factories.ts';
import { startFakePlatform, type FakePlatform } from '#server/testing/lti-platform.ts';
import { ltiPlatforms, ltiRegistrationTokens } from '#server/db/schema/index.ts';
import { toolJwks } from './lti-key.ts';
import { toolUrls } from './lti-platforms.admin.ts';
import { createLtiRegistration, RegistrationRefused } from './lti-registration.ts';

const toolConfiguration = 'https://purl.imsglobal.org/spec/lti-tool-configuration';

let t: TestApp;
let platform: FakePlatform;
let admin: { cookie: string };
let organizationId = '';

async function registrationUrl(cookie = admin.cookie, organization = organizationId) {
  return t.app.inject({
    method: 'POST',
    url: '/api/admin/lti/registrations',
    headers: { cookie, origin: testPublicUrl },
    payload: { organizationId: organization },
  });
}

/** The LMS opens the URL in its frame with its configuration and the registration token. */
async function open(url: string, params: Record<string, string> = {}) {
  const target = new URL(url);
  const query = new URLSearchParams({
    openid_configuration: platform.openIdConfigurationUrl,
    registration_token: platform.dynamic.token,
    ...params,
  });
  return t.app.inject({ method: 'GET', url: `${target.pathname}?${query}` });
}

const newUrl = async () => (await registrationUrl()).json().url as string;
const platformCount = async () => (await t.db.select({ n: count() }).from(ltiPlatforms))[0]!.n;

beforeAll(async () => {
  t = await createTestApp();
  platform = await startFakePlatform({ toolJwks: () => toolJwks(t.config.ltiKey!) });
  admin = await signedInAs(t, { type: 'Admin' });
  organizationId = (await createClassroom(t, { procedureIds: [] })).organizationId;
});
afterAll(async () => {
  await platform?.close();
  await t?.close();
});
beforeEach(() => {
  platform.dynamic.issuer = null;
  platform.dynamic.omitClientId = false;
  platform.dynamic.omitDeploymentId = false;
});

describe('LTI Dynamic Registration', () => {
  it('only an Admin makes a registration URL; guests, Gratis (basic), Legacy and Premium are refused', async () => {
    const guest = await t.app.inject({
      method: 'POST',
      url: '/api/admin/lti/registrations',
      headers: { origin: testPublicUrl },
      payload: { organizationId },
    });
    expect(guest.statusCode).toBe(401);
    for (const type of ['Gratis', 'Legacy', 'Premium'] as const) {
      const member = await signedInAs(t, { type });
      expect((await registrationUrl(member.cookie)).statusCode).toBe(403);
    }
    const unknown = await registrationUrl(admin.cookie, crypto.randomUUID());
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().fields).toEqual({ organizationId: 'Elige una organización' });
    const made = await registrationUrl();
    expect(made.statusCode).toBe(200);
    expect(made.json().url).toMatch(new RegExp(`^${testPublicUrl}/api/lti/register/[A-Za-z0-9_-]{43}$`));
    expect(new Date(made.json().expiresAt).getTime()).toBeGreaterThan(Date.now() + 3600_000);
    // only the secret's hash is kept
    const secret = made.json().url.split('/').pop();
    const rows = await t.db.select().from(ltiRegistrationTokens);
    expect(rows.some((row) => row.tokenHash === secret)).toBe(false);
  });

  it('registers CxVet with the platform and stores it in the organization, framed by the LMS, once', async () => {
    const url = await newUrl();
    const before = platform.dynamic.received.length;
    const response = await open(url);
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('CxVet quedó registrado');
    expect(response.body).toContain('/api/lti/register-close.js');
    expect(response.headers['content-security-policy']).toContain(`frame-ancestors ${platform.base}`);
    expect(response.headers['x-frame-options']).toBeUndefined();
    // the body the platform accepted, as the spec asks
    const body = platform.dynamic.received[before]!;
    expect(body).toMatchObject({
      application_type: 'web',
      response_types: ['id_token'],
      grant_types: ['implicit', 'client_credentials'],
      initiate_login_uri: `${testPublicUrl}/api/lti/login`,
      redirect_uris: [`${testPublicUrl}/api/lti/launch`],
      jwks_uri: `${testPublicUrl}/api/lti/jwks`,
      token_endpoint_auth_method: 'private_key_jwt',
      scope:
        'https://purl.imsglobal.org/spec/lti-ags/scope/score https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly',
    });
    expect(body[toolConfiguration]).toMatchObject({
      domain: 'localhost:3000',
      target_link_uri: `${testPublicUrl}/api/lti/launch`,
      claims: expect.arrayContaining(['sub', 'email', 'name']),
      messages: expect.arrayContaining([expect.objectContaining({ type: 'LtiDeepLinkingRequest' })]),
    });
    const [stored] = await t.db.select().from(ltiPlatforms).where(eq(ltiPlatforms.issuer, platform.issuer));
    expect(stored).toMatchObject({
      clientId: `cliente-dinamico-${platform.dynamic.clientCount}`,
      deploymentIds: [`despliegue-dinamico-${platform.dynamic.clientCount}`],
      authorizationUrl: `${platform.base}/auth`,
      tokenUrl: `${platform.base}/token`,
      jwksUrl: `${platform.base}/jwks`,
      organizationId,
    });
    expect(stored!.name).toContain('Moodle');
    // it shows in 'Plataformas LTI' as a hand-entered one
    const listed = await t.app.inject({ url: '/api/admin/lti/platforms', headers: { cookie: admin.cookie } });
    expect(listed.json().items.map((item: { id: string }) => item.id)).toContain(stored!.id);
    // the page's button tells the LMS to close its frame, as the spec's postMessage
    const script = await t.app.inject({ url: '/api/lti/register-close.js' });
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.body).toContain("postMessage({ subject: 'org.imsglobal.lti.close' }, '*')");
    expect(script.body).toContain('window.opener || window.parent');

    const again = await open(url);
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain('Este enlace de registro ya se usó.');
    expect(platform.dynamic.received.length).toBe(before + 1);
  });

  it('two openings of one URL at once register once', async () => {
    const url = await newUrl();
    const before = await platformCount();
    const answers = await Promise.all([open(url), open(url)]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
    expect(await platformCount()).toBe(before + 1);
  });

  it('refuses an expired or unknown URL, and creates nothing', async () => {
    const url = await newUrl();
    await t.db.update(ltiRegistrationTokens).set({ expiresAt: new Date(Date.now() - 1000) });
    const before = await platformCount();
    const expired = await open(url);
    expect(expired.statusCode).toBe(400);
    expect(expired.body).toContain('Este enlace de registro venció.');
    const unknown = await open(`${testPublicUrl}/api/lti/register/no-existe`);
    expect(unknown.body).toContain('Este enlace de registro no existe.');
    expect(await platformCount()).toBe(before);
  });

  it("refuses a configuration whose issuer is not the URL's, and gives the URL back", async () => {
    const url = await newUrl();
    const before = await platformCount();
    platform.dynamic.issuer = 'https://otra-plataforma.example.com';
    const response = await open(url);
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('No pudimos registrar CxVet');
    expect(response.body).toContain('El emisor de la configuración de tu plataforma no corresponde');
    expect(response.body).toContain('/api/lti/register-close.js');
    // an issuer on the same host but another path is no prefix of the URL either
    platform.dynamic.issuer = `${platform.base}/otra`;
    expect((await open(url)).body).toContain('El emisor de la configuración');
    expect(await platformCount()).toBe(before);
    platform.dynamic.issuer = null;
    expect((await open(url)).statusCode).toBe(200);
  });

  it('refuses an answer without client_id, a wrong registration token, and a bad configuration URL', async () => {
    const url = await newUrl();
    const before = await platformCount();
    platform.dynamic.omitClientId = true;
    expect((await open(url)).body).toContain('sin asignar un client id');
    platform.dynamic.omitClientId = false;
    expect((await open(url, { registration_token: 'otro-token' })).body).toContain(
      'Tu plataforma rechazó el registro de CxVet.',
    );
    expect((await open(url, { openid_configuration: 'ftp://moodle.example.com/config' })).body).toContain(
      'deben usar https',
    );
    expect((await open(url, { openid_configuration: `${platform.base}/no-hay-nada` })).body).toContain(
      'No pudimos leer la configuración de tu plataforma.',
    );
    expect(await platformCount()).toBe(before);
  });

  it('stores a platform that sent no deployment id without one, and says to add it', async () => {
    platform.dynamic.omitDeploymentId = true;
    const response = await open(await newUrl());
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('Tu plataforma no envió un deployment id');
    const [stored] = await t.db
      .select()
      .from(ltiPlatforms)
      .where(eq(ltiPlatforms.clientId, `cliente-dinamico-${platform.dynamic.clientCount}`));
    expect(stored!.deploymentIds).toEqual([]);
  });

  it('in production refuses a configuration URL that is not https', async () => {
    const registration = createLtiRegistration({
      db: t.db,
      urls: toolUrls(testPublicUrl),
      publicUrl: testPublicUrl,
      production: true,
      platformsChanged: () => {},
    });
    const { url } = await registration.create(organizationId, (await signedInAs(t, { type: 'Admin' })).user.id);
    const attempt = registration.register({
      token: url.split('/').pop()!,
      openidConfiguration: platform.openIdConfigurationUrl,
      registrationToken: platform.dynamic.token,
    });
    await expect(attempt).rejects.toThrow(RegistrationRefused);
    await expect(attempt).rejects.toMatchObject({ reason: 'url-insegura' });
  });
});
