import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type JsonWebKey } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A public key of the tool's JWKS; `exp` (seconds) ends the listing of a rotated-out key. */
export type LtiPublicJwk = { kty: 'RSA'; n: string; e: string; kid: string; alg: 'RS256'; use: 'sig'; exp?: number };

/** The tool's RS256 key (PKCS#8 PEM) and the public keys of earlier ones, listed until they expire. */
export type LtiKey = { privateKeyPem: string; kid: string; previousPublicKeys: LtiPublicJwk[] };

/** RFC 7638 thumbprint: the same key gets the same kid on every instance. */
function thumbprint(jwk: JsonWebKey): string {
  const canonical = JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n });
  return createHash('sha256').update(canonical).digest('base64url');
}

function publicJwkOf(pem: string): LtiPublicJwk {
  const jwk = createPublicKey(pem).export({ format: 'jwk' });
  if (jwk.kty !== 'RSA' || !jwk.n || !jwk.e) throw new Error('LTI_SIGNING_KEY debe ser una clave RSA');
  return { kty: 'RSA', n: jwk.n, e: jwk.e, kid: thumbprint(jwk), alg: 'RS256', use: 'sig' };
}

function parsePrevious(value: string | undefined): LtiPublicJwk[] {
  if (!value?.trim()) return [];
  let list: unknown;
  try {
    list = JSON.parse(value);
  } catch {
    throw new Error('LTI_PREVIOUS_PUBLIC_KEYS debe ser una lista JSON de claves públicas RSA (JWK)');
  }
  if (!Array.isArray(list))
    throw new Error('LTI_PREVIOUS_PUBLIC_KEYS debe ser una lista JSON de claves públicas (JWK)');
  return list.map((entry: { kty?: unknown; n?: unknown; e?: unknown; exp?: unknown; d?: unknown }) => {
    if (entry?.kty !== 'RSA' || typeof entry.n !== 'string' || typeof entry.e !== 'string' || 'd' in entry) {
      throw new Error('LTI_PREVIOUS_PUBLIC_KEYS: cada elemento es la clave pública RSA (JWK, sin "d")');
    }
    const exp = typeof entry.exp === 'number' ? entry.exp : undefined;
    const jwk = { kty: 'RSA', n: entry.n, e: entry.e } as JsonWebKey;
    return { kty: 'RSA', n: entry.n, e: entry.e, kid: thumbprint(jwk), alg: 'RS256', use: 'sig', exp };
  });
}

/**
 * LTI_SIGNING_KEY (an RSA private key, PKCS#8 PEM; `\n` may be written escaped) signs deep-linking answers and
 * service tokens; every instance must have the same one. Outside production a missing one is created in DATA_DIR.
 */
export function ltiKeyFor(
  env: { LTI_SIGNING_KEY?: string; LTI_PREVIOUS_PUBLIC_KEYS?: string; NODE_ENV?: string },
  dataDir: string,
  command = false,
): LtiKey | undefined {
  const previousPublicKeys = parsePrevious(env.LTI_PREVIOUS_PUBLIC_KEYS);
  const chosen = env.LTI_SIGNING_KEY?.trim().replace(/\\n/g, '\n');
  if (chosen) return keyFromPem(chosen, previousPublicKeys, 'LTI_SIGNING_KEY');
  // a command neither needs the key nor creates one in DATA_DIR (a restore expects that folder empty)
  if (command) return undefined;
  if (env.NODE_ENV === 'production') {
    throw new Error(
      'LTI_SIGNING_KEY no está definido: en producción CxVet firma LTI con una clave RSA fija, igual en todas las instancias (openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048).',
    );
  }
  return keyFromPem(readOrCreatePem(dataDir), previousPublicKeys, 'DATA_DIR/lti-signing-key.pem');
}

function keyFromPem(pem: string, previousPublicKeys: LtiPublicJwk[], source: string): LtiKey {
  try {
    const privateKey = createPrivateKey(pem);
    if (privateKey.asymmetricKeyType !== 'rsa') throw new Error('not rsa');
    const privateKeyPem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    return { privateKeyPem, kid: publicJwkOf(privateKeyPem).kid, previousPublicKeys };
  } catch {
    throw new Error(`${source} no es una clave privada RSA en formato PEM`);
  }
}

function readOrCreatePem(dataDir: string): string {
  const file = path.join(dataDir, 'lti-signing-key.pem');
  if (existsSync(file)) return readFileSync(file, 'utf8');
  mkdirSync(dataDir, { recursive: true });
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
  writeFileSync(file, pem, { mode: 0o600 });
  return pem;
}

/** The JWKS platforms fetch: the current key, and earlier ones until their `exp`. */
export function toolJwks(key: LtiKey, now = Date.now()): { keys: LtiPublicJwk[] } {
  const current = publicJwkOf(key.privateKeyPem);
  const earlier = key.previousPublicKeys.filter((jwk) => jwk.kid !== current.kid && (!jwk.exp || jwk.exp * 1000 > now));
  return { keys: [current, ...earlier] };
}
