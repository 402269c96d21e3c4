import { randomBytes } from 'node:crypto';
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { certificates, credits, diplomaUsers, diplomas as diplomaTable, users } from '#server/db/schema/index.ts';
import type { FileStorage } from '#server/services/storage.ts';
import { AppError } from '#shared/errors.ts';
import { formatFolio } from '#shared/diplomas/diplomas.rules.ts';
import type { CertificateSummary, CertificateVerification } from '#shared/diplomas/diplomas.schemas.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import type { Config } from '#server/config.ts';
import { createCredentialsService } from '#server/features/credentials/credentials.service.ts';
import type { DiplomasService } from './diplomas.service.ts';

type CertificateRow = typeof certificates.$inferSelect;

// no 0/O or 1/I: the code is read aloud and typed from paper
const codeAlphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** 12 characters from 32 symbols: 60 bits, not guessable within any rate limit. */
export function newVerificationCode(): string {
  const bytes = randomBytes(12);
  return Array.from(bytes, (byte) => codeAlphabet[byte % codeAlphabet.length]).join('');
}

const spanishDate = new Intl.DateTimeFormat('es-MX', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});

function summary(row: CertificateRow): CertificateSummary {
  return {
    id: row.id,
    diplomaId: row.diplomaId,
    diplomaTitle: row.diplomaTitle,
    folio: formatFolio(row.folio),
    verificationCode: row.verificationCode,
    issuedAt: row.issuedAt.toISOString(),
    isRevoked: row.revokedAt !== null,
  };
}

async function readAll(storage: FileStorage, key: string): Promise<Uint8Array | null> {
  if (!(await storage.stat(key))) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of storage.read(key)) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

export function createCertificatesService(deps: {
  db: Db;
  diplomas: DiplomasService;
  storage: FileStorage;
  /** certificatePlace is printed beside the date ('Ciudad de México, 26 de noviembre de 2026'). */
  config: Pick<Config, 'publicUrl' | 'certificatePlace' | 'credentialsKey'>;
}) {
  const { db, diplomas, storage } = deps;
  const { publicUrl, certificatePlace: place } = deps.config;
  const credentials = createCredentialsService({ db, publicUrl, key: deps.config.credentialsKey });

  /**
   * Issues the member's certificate once: folio = the next number in this diploma, taken under a
   * per-diploma advisory lock so concurrent downloads never share or skip one. Revoked rows keep theirs.
   */
  async function issue(user: UserRow, diplomaId: string): Promise<CertificateRow> {
    const diploma = await diplomas.findActive(diplomaId);
    const [existing] = await db
      .select()
      .from(certificates)
      .where(and(eq(certificates.diplomaId, diplomaId), eq(certificates.userId, user.id)));
    if (existing) return existing;
    if (!(await diplomas.isEnrolled(user.id, diplomaId))) throw new AppError('FORBIDDEN');
    const { progressPercent, completedAt } = await diplomas.progressOf(diplomaId, user.id);
    if (progressPercent < 100 || !completedAt) throw new AppError('FORBIDDEN');
    const row = await insertCertificate(user, diploma, completedAt);
    // the certificate stands without its credential: one that failed to sign is signed on its next request
    await credentials.ensureFor(row.id).catch(() => undefined);
    return row;
  }

  async function insertCertificate(
    user: UserRow,
    diploma: Awaited<ReturnType<DiplomasService['findActive']>>,
    completedAt: Date,
  ): Promise<CertificateRow> {
    const diplomaId = diploma.id;
    return db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`certificate-folio:${diplomaId}`}))`);
      const inserted = await tx
        .insert(certificates)
        .values({
          diplomaId,
          userId: user.id,
          diplomaTitle: diploma.title,
          folio: sql`(select coalesce(max(${certificates.folio}), 0) + 1 from ${certificates} where ${certificates.diplomaId} = ${diplomaId})`,
          verificationCode: newVerificationCode(),
          holderName: user.name,
          issuerName: diploma.organizationName || 'CxVet',
          completedAt,
        })
        .onConflictDoNothing({ target: [certificates.diplomaId, certificates.userId] })
        .returning();
      const row =
        inserted[0] ??
        (
          await tx
            .select()
            .from(certificates)
            .where(and(eq(certificates.diplomaId, diplomaId), eq(certificates.userId, user.id)))
        )[0];
      if (!row) throw new AppError('CONFLICT');
      await tx
        .update(diplomaUsers)
        .set({ certificateAt: row.issuedAt })
        .where(and(eq(diplomaUsers.diplomaId, diplomaId), eq(diplomaUsers.userId, user.id)));
      return row;
    });
  }

  /** Issues if needed and renders the PDF from what was frozen at issue (same bytes every time). */
  async function download(user: UserRow, diplomaId: string): Promise<{ bytes: Uint8Array; fileName: string }> {
    const row = await issue(user, diplomaId);
    if (row.revokedAt) throw new AppError('FORBIDDEN');
    const diploma = await diplomas.findActive(diplomaId);
    const bytes = await renderFrozen(row, diploma.certificateImage);
    return { bytes, fileName: `constancia-${formatFolio(row.folio)}.pdf` };
  }

  /** The PDF of an issued certificate, from what was frozen at issue and the diploma's background image. */
  async function renderFrozen(
    row: typeof certificates.$inferSelect,
    image: string | null,
    creditLines?: string[],
  ): Promise<Uint8Array> {
    // pdf-lib, fontkit and qrcode load with the first certificate, not at every start
    const { renderCertificatePdf } = await import('./certificates.pdf.ts');
    return renderCertificatePdf({
      holderName: row.holderName,
      diplomaTitle: row.diplomaTitle,
      folio: formatFolio(row.folio),
      issuerName: row.issuerName,
      place,
      completedOn: spanishDate.format(row.completedAt),
      issuedAt: row.issuedAt,
      verificationUrl: new URL(`/certificados/${row.verificationCode}`, publicUrl).toString(),
      verificationCode: row.verificationCode,
      backgroundImage: image ? await readAll(storage, image) : null,
      credential: row.revokedAt ? null : await credentials.ensureFor(row.id).catch(() => null),
      creditLines,
    });
  }

  /** A member's own unrevoked certificate with continuing-education lines under the date. */
  async function downloadWithLines(
    userId: string,
    certificateId: string,
    creditLines: string[],
  ): Promise<{ bytes: Uint8Array; fileName: string }> {
    const [found] = await db
      .select({ certificate: certificates, image: diplomaTable.certificateImage })
      .from(certificates)
      .leftJoin(diplomaTable, eq(diplomaTable.id, certificates.diplomaId))
      .where(and(eq(certificates.id, certificateId), eq(certificates.userId, userId)));
    if (!found || found.certificate.revokedAt) throw new AppError('NOT_FOUND');
    const bytes = await renderFrozen(found.certificate, found.image, creditLines);
    return { bytes, fileName: `constancia-${formatFolio(found.certificate.folio)}-creditos.pdf` };
  }

  /**
   * A procedure credit's own certificate (decision 049): the same page and lines as a diploma's, with the
   * folio and verification code frozen on the credit; no background image and no Open Badges credential.
   */
  async function renderCreditCertificate(credit: {
    holderName: string;
    title: string;
    folio: number;
    verificationCode: string;
    earnedAt: Date;
    creditLines: string[];
  }): Promise<{ bytes: Uint8Array; fileName: string }> {
    const { renderCertificatePdf } = await import('./certificates.pdf.ts');
    const bytes = await renderCertificatePdf({
      holderName: credit.holderName,
      diplomaTitle: credit.title,
      folio: formatFolio(credit.folio),
      issuerName: 'CxVet',
      place,
      completedOn: spanishDate.format(credit.earnedAt),
      issuedAt: credit.earnedAt,
      verificationUrl: new URL(`/certificados/${credit.verificationCode}`, publicUrl).toString(),
      verificationCode: credit.verificationCode,
      backgroundImage: null,
      credential: null,
      creditLines: credit.creditLines,
      reason: 'por haber visto y evaluado el procedimiento',
    });
    return { bytes, fileName: `constancia-creditos-${credit.verificationCode}.pdf` };
  }

  /** The profile's certificates card. */
  async function listForUser(userId: string): Promise<CertificateSummary[]> {
    const rows = await db
      .select()
      .from(certificates)
      .where(eq(certificates.userId, userId))
      .orderBy(desc(certificates.issuedAt));
    return rows.map(summary);
  }

  /** The public page: only what the certificate itself shows (a diploma's, or a procedure credit's own). */
  async function verify(code: string): Promise<CertificateVerification> {
    const [row] = await db
      .select()
      .from(certificates)
      .where(eq(certificates.verificationCode, code.trim().toUpperCase()));
    if (!row) return verifyProcedureCredit(code.trim().toUpperCase());
    return {
      holderName: row.holderName,
      diplomaTitle: row.diplomaTitle,
      folio: formatFolio(row.folio),
      completedAt: row.completedAt.toISOString(),
      issuedAt: row.issuedAt.toISOString(),
      issuerName: row.issuerName,
      revokedAt: row.revokedAt?.toISOString() ?? null,
    };
  }

  async function verifyProcedureCredit(code: string): Promise<CertificateVerification> {
    const [found] = await db
      .select({ credit: credits, anonymizedAt: users.anonymizedAt })
      .from(credits)
      .leftJoin(users, eq(users.id, credits.userId))
      .where(and(eq(credits.verificationCode, code), isNotNull(credits.folio)));
    if (!found) throw new AppError('NOT_FOUND');
    const { credit } = found;
    // the audit records keep the name four years; the public page stops showing it with the account, as a diploma's
    const isDeleted = credit.userId === null || found.anonymizedAt !== null;
    return {
      holderName: isDeleted ? '' : credit.holderName,
      diplomaTitle: credit.title,
      folio: formatFolio(credit.folio!),
      completedAt: credit.earnedAt.toISOString(),
      issuedAt: credit.earnedAt.toISOString(),
      issuerName: 'CxVet',
      revokedAt: credit.revokedAt?.toISOString() ?? null,
    };
  }

  async function listForDiploma(diplomaId: string) {
    const rows = await db
      .select()
      .from(certificates)
      .where(eq(certificates.diplomaId, diplomaId))
      .orderBy(certificates.folio);
    return rows.map((row) => ({
      ...summary(row),
      userId: row.userId,
      holderName: row.holderName,
      revokeReason: row.revokeReason,
    }));
  }

  /** Admin: the row stays (its folio is never given again); the public page says it was revoked. */
  async function revoke(certificateId: string, reason: string, revokedOn: Date = new Date()): Promise<void> {
    // the day the Admin picked, at noon, may still be ahead today: a revocation is never dated after it happens
    const revokedAt = new Date(Math.min(revokedOn.getTime(), Date.now()));
    const updated = await db
      .update(certificates)
      .set({ revokedAt, revokeReason: reason })
      .where(eq(certificates.id, certificateId))
      .returning({ id: certificates.id });
    if (updated.length === 0) throw new AppError('NOT_FOUND');
  }

  /** The member's issued, unrevoked certificates as PDFs (for 'Descargar mis datos'); an inactive diploma still renders. */
  async function pdfsForUser(userId: string): Promise<{ fileName: string; bytes: Uint8Array }[]> {
    const rows = await db
      .select({ certificate: certificates, image: diplomaTable.certificateImage })
      .from(certificates)
      .leftJoin(diplomaTable, eq(diplomaTable.id, certificates.diplomaId))
      .where(eq(certificates.userId, userId));
    const files: { fileName: string; bytes: Uint8Array }[] = [];
    for (const { certificate: row, image } of rows) {
      if (row.revokedAt) continue;
      const bytes = await renderFrozen(row, image);
      files.push({ fileName: `constancia-${formatFolio(row.folio)}-${row.verificationCode}.pdf`, bytes });
    }
    return files;
  }

  /** The characters of a text the certificate's fonts cannot print. */
  async function unprintableCharacters(text: string): Promise<string[]> {
    const pdf = await import('./certificates.pdf.ts');
    return pdf.unprintableCharacters(text);
  }

  return {
    unprintableCharacters,
    issue,
    download,
    downloadWithLines,
    renderCreditCertificate,
    listForUser,
    verify,
    listForDiploma,
    revoke,
    pdfsForUser,
    credentials,
  };
}

export type CertificatesService = ReturnType<typeof createCertificatesService>;
