import { describe, expect, it } from 'vitest';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadCommandConfig } from '#server/config.ts';
import { ltiKeyFor, toolJwks } from './lti-key.ts';

const newPem = () =>
  generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();

describe('the LTI signing key', () => {
  it('is required in production, naming LTI_SIGNING_KEY', () => {
    expect(() => ltiKeyFor({ NODE_ENV: 'production' }, '/nonexistent')).toThrow(/^LTI_SIGNING_KEY no está definido: /);
  });

  it('outside production is created once in DATA_DIR (mode 0600) and read back the same on the next start', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cxvet-lti-key-'));
    try {
      const first = ltiKeyFor({}, dir)!;
      const file = path.join(dir, 'lti-signing-key.pem');
      expect((await stat(file)).mode & 0o777).toBe(0o600);
      expect(await readFile(file, 'utf8')).toContain('BEGIN PRIVATE KEY');
      expect(ltiKeyFor({}, dir)!.kid).toBe(first.kid);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('is neither required nor created for commands', () => {
    expect(ltiKeyFor({ NODE_ENV: 'production' }, '/nonexistent', true)).toBeUndefined();
    const config = loadCommandConfig({
      SESSION_SECRET: 'x'.repeat(32),
      CREDENTIALS_SIGNING_KEY: '07'.repeat(32),
      DATA_DIR: '/nonexistent',
      NODE_ENV: 'production',
      DELETION_LEDGER_PATH: '/tmp/x',
    });
    expect(config.ltiKey).toBeUndefined();
  });

  it('takes a PEM written with escaped line breaks, and refuses what is not an RSA private key', () => {
    const pem = newPem();
    const key = ltiKeyFor({ LTI_SIGNING_KEY: pem.replace(/\n/g, '\\n') }, '/nonexistent')!;
    expect(key.kid).toBe(ltiKeyFor({ LTI_SIGNING_KEY: pem }, '/nonexistent')!.kid);
    expect(() => ltiKeyFor({ LTI_SIGNING_KEY: 'no-es-una-clave' }, '/nonexistent')).toThrow(
      'LTI_SIGNING_KEY no es una clave privada RSA en formato PEM',
    );
    const ed = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    expect(() => ltiKeyFor({ LTI_SIGNING_KEY: ed }, '/nonexistent')).toThrow(/no es una clave privada RSA/);
  });

  it('after a rotation lists the old public key until its exp, never a private part', () => {
    const old = ltiKeyFor({ LTI_SIGNING_KEY: newPem() }, '/nonexistent')!;
    const oldPublic = toolJwks(old).keys[0]!;
    const now = Date.now();
    const previous = JSON.stringify([
      { kty: 'RSA', n: oldPublic.n, e: oldPublic.e, exp: Math.floor(now / 1000) + 3600 },
    ]);
    const rotated = ltiKeyFor({ LTI_SIGNING_KEY: newPem(), LTI_PREVIOUS_PUBLIC_KEYS: previous }, '/nonexistent')!;
    const listed = toolJwks(rotated, now).keys;
    expect(listed.map((key) => key.kid)).toEqual([rotated.kid, old.kid]);
    expect(listed.every((key) => !('d' in key))).toBe(true);
    expect(toolJwks(rotated, now + 2 * 3600_000).keys.map((key) => key.kid)).toEqual([rotated.kid]);
    expect(() =>
      ltiKeyFor(
        { LTI_SIGNING_KEY: newPem(), LTI_PREVIOUS_PUBLIC_KEYS: '[{"kty":"RSA","n":"a","e":"b","d":"c"}]' },
        '/x',
      ),
    ).toThrow(/LTI_PREVIOUS_PUBLIC_KEYS/);
    expect(() => ltiKeyFor({ LTI_SIGNING_KEY: newPem(), LTI_PREVIOUS_PUBLIC_KEYS: 'nada' }, '/x')).toThrow(
      /LTI_PREVIOUS_PUBLIC_KEYS/,
    );
  });
});
