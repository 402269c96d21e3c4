import { and, count, eq, gte, isNotNull, isNull, lt, max, ne } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { certificates, diplomas, users } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { BitstringStatusList, createCredential } from '@digitalbazaar/vc-bitstring-status-list';
import { createIssuer, type Credential, type Issuer } from './issuer.ts';
import { openBadgeOf, statusListLength, statusListUrl } from './open-badge.ts';
import type { CredentialsKey } from './signing-key.ts';

export type CredentialCheck = { valid: true; message: string } | { valid: false; message: string; revokedAt?: string };

const spanishDate = new Intl.DateTimeFormat('es-MX', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

const failures = {
  'unknown-key': 'La credencial no está firmada con una clave de CxVet',
  malformed: 'El archivo no es una credencial válida',
  signature: 'La firma no corresponde',
};

/** Open Badges 3.0: one signed credential per certificate, the revocation status lists, and our own check of both. */
export function createCredentialsService(deps: {
  db: Db;
  publicUrl: string;
  /** Unset only where commands (restore's deletion replay) build the services: they sign nothing. */
  key: CredentialsKey | undefined;
}) {
  const { db, publicUrl, key } = deps;
  let issuer: Promise<Issuer> | undefined;
  const issuerOnce = () => {
    if (!key) throw new Error('CREDENTIALS_SIGNING_KEY no está definido: esta orden no firma credenciales');
    return (issuer ??= createIssuer({ publicUrl, key, statusList: statusListAt }));
  };
  // a signed list per (list, revoked count, latest revocation): every instance derives the same from the database
  const signedLists = new Map<number, { version: string; credential: Credential }>();

  async function statusListAt(url: string): Promise<Credential | null> {
    const match = /\/api\/credentials\/status\/(\d{1,6})$/.exec(url);
    if (!match || url !== statusListUrl(publicUrl, Number(match[1]))) return null;
    return statusList(Number(match[1]));
  }

  /** The signed BitstringStatusListCredential of list `list`: bit i set when the certificate of index i is revoked. */
  async function statusList(list: number): Promise<Credential> {
    const inList = and(
      isNotNull(certificates.revokedAt),
      gte(certificates.statusListIndex, list * statusListLength),
      lt(certificates.statusListIndex, (list + 1) * statusListLength),
    );
    const [state] = await db
      .select({ revoked: count(), latest: max(certificates.revokedAt) })
      .from(certificates)
      .where(inList);
    const version = `${state?.revoked ?? 0}:${state?.latest?.toISOString() ?? ''}`;
    const cached = signedLists.get(list);
    if (cached?.version === version) return cached.credential;
    const revoked = await db.select({ index: certificates.statusListIndex }).from(certificates).where(inList);
    const bits = new BitstringStatusList({ length: statusListLength });
    for (const { index } of revoked) bits.setStatus(index % statusListLength, true);
    const id = statusListUrl(publicUrl, list);
    const unsigned = await createCredential({ id, list: bits, statusPurpose: 'revocation' });
    const { did, sign } = await issuerOnce();
    // a revocation dated later today (noon on the day the Admin picked) must not make the list not yet valid:
    // verifiers refuse a validFrom in the future, and every credential of the list would then fail its check
    const latest = state?.latest ?? new Date(0);
    const credential = await sign({
      ...unsigned,
      issuer: did,
      validFrom: new Date(Math.min(latest.getTime(), Date.now())).toISOString(),
    });
    signedLists.set(list, { version, credential });
    return credential;
  }

  /** The certificate's credential, signed and stored the first time it is asked for. */
  async function ensureFor(certificateId: string): Promise<Credential> {
    const [found] = await db
      .select({ certificate: certificates, diploma: diplomas, email: users.email })
      .from(certificates)
      .leftJoin(diplomas, eq(diplomas.id, certificates.diplomaId))
      .innerJoin(users, eq(users.id, certificates.userId))
      .where(eq(certificates.id, certificateId));
    if (!found) throw new AppError('NOT_FOUND');
    if (found.certificate.credential) return found.certificate.credential as Credential;
    if (found.certificate.revokedAt || !found.certificate.holderName) throw new AppError('NOT_FOUND');
    const { did, sign } = await issuerOnce();
    const signed = await sign(
      openBadgeOf({ publicUrl, did, certificate: found.certificate, diploma: found.diploma, email: found.email }),
    );
    const [stored] = await db
      .update(certificates)
      .set({ credential: signed })
      .where(and(eq(certificates.id, certificateId), isNull(certificates.credential)))
      .returning({ credential: certificates.credential });
    if (stored) return signed;
    return (await ensureFor(certificateId)) as Credential;
  }

  /** The public JSON download of the verification page. */
  async function forCode(code: string): Promise<Credential> {
    const [row] = await db
      .select({ id: certificates.id })
      .from(certificates)
      .where(eq(certificates.verificationCode, code.trim().toUpperCase()));
    if (!row) throw new AppError('NOT_FOUND');
    return ensureFor(row.id);
  }

  /** Our server's check of a credential's proof and of its bit in our status list. */
  async function check(credential: unknown): Promise<CredentialCheck> {
    const outcome = await (await issuerOnce()).verify(credential);
    if (outcome.valid) return { valid: true, message: 'Firma y estado verificados' };
    if (outcome.reason !== 'revoked') return { valid: false, message: failures[outcome.reason] };
    const list = Number(/(\d+)$/.exec(outcome.statusListCredential)?.[1] ?? 0);
    const [row] = await db
      .select({ revokedAt: certificates.revokedAt })
      .from(certificates)
      .where(eq(certificates.statusListIndex, list * statusListLength + outcome.statusListIndex));
    const revokedAt = row?.revokedAt ?? null;
    return {
      valid: false,
      message: revokedAt ? `Constancia revocada el ${spanishDate.format(revokedAt)}` : 'Constancia revocada',
      ...(revokedAt ? { revokedAt: revokedAt.toISOString() } : {}),
    };
  }

  /** The one-time job: certificates issued before credentials existed get theirs (revoked and erased ones do not). */
  async function backfill(): Promise<number> {
    const pending = await db
      .select({ id: certificates.id })
      .from(certificates)
      .where(and(isNull(certificates.credential), isNull(certificates.revokedAt), ne(certificates.holderName, '')));
    for (const { id } of pending) await ensureFor(id);
    return pending.length;
  }

  async function didDocument() {
    return (await issuerOnce()).didDocument;
  }

  return { ensureFor, forCode, check, statusList, backfill, didDocument, canSign: key !== undefined };
}

export type CredentialsService = ReturnType<typeof createCredentialsService>;
