import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The issuer's Ed25519 key: its 32-byte seed, and the public keys (multibase) of earlier keys still listed. */
export type CredentialsKey = { seed: Uint8Array; previousPublicKeys: string[] };

const seedPattern = /^[0-9a-f]{64}$/i;
// an Ed25519 public key as Multikey: base58btc ('z') of 0xed01 + 32 bytes, always starting z6Mk
const publicKeyPattern = /^z6Mk[1-9A-HJ-NP-Za-km-z]{44}$/;

/**
 * CREDENTIALS_SIGNING_KEY (64 hex characters) signs every credential; every instance must have the same one. Outside
 * production a missing one is created in DATA_DIR once; in production its absence stops the start.
 */
export function credentialsKeyFor(
  env: { CREDENTIALS_SIGNING_KEY?: string; CREDENTIALS_PREVIOUS_PUBLIC_KEYS?: string; NODE_ENV?: string },
  dataDir: string,
  /** backup, restore, migrate, seed: they sign nothing, so no key is required or created for them */
  command = false,
): CredentialsKey | undefined {
  const previousPublicKeys = (env.CREDENTIALS_PREVIOUS_PUBLIC_KEYS ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter(Boolean);
  const wrong = previousPublicKeys.find((key) => !publicKeyPattern.test(key));
  if (wrong) {
    throw new Error(
      `CREDENTIALS_PREVIOUS_PUBLIC_KEYS: ${wrong} no es una clave pública Ed25519 (Multikey, empieza con z6Mk)`,
    );
  }
  const chosen = env.CREDENTIALS_SIGNING_KEY?.trim();
  if (chosen) {
    if (!seedPattern.test(chosen)) {
      throw new Error('CREDENTIALS_SIGNING_KEY debe tener 64 caracteres hexadecimales (openssl rand -hex 32)');
    }
    return { seed: Buffer.from(chosen, 'hex'), previousPublicKeys };
  }
  // a command neither needs the key nor creates one in DATA_DIR (a restore expects that folder empty)
  if (command) return undefined;
  if (env.NODE_ENV === 'production') {
    throw new Error(
      'CREDENTIALS_SIGNING_KEY no está definido: en producción las credenciales se firman con una clave fija, igual en todas las instancias (openssl rand -hex 32).',
    );
  }
  return { seed: readOrCreateSeed(dataDir), previousPublicKeys };
}

function readOrCreateSeed(dataDir: string): Uint8Array {
  const file = path.join(dataDir, 'credentials-signing-key');
  if (existsSync(file)) {
    const stored = readFileSync(file, 'utf8').trim();
    if (!seedPattern.test(stored)) throw new Error(`${file} no contiene una clave de 64 caracteres hexadecimales`);
    return Buffer.from(stored, 'hex');
  }
  mkdirSync(dataDir, { recursive: true });
  const seed = randomBytes(32);
  writeFileSync(file, seed.toString('hex'), { mode: 0o600 });
  return seed;
}
