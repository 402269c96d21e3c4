import { and, asc, desc, eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import {
  certificates,
  courseEvaluations,
  creditOffers,
  credits,
  diplomas as diplomaTable,
  users,
} from '#server/db/schema/index.ts';
import { adminCreditRowOf, evaluationStateOf, offerColumnsOf, offerInputOf } from './credit-offers.ts';
import { AppError } from '#shared/errors.ts';
import { dateToZonedWallTime, revocationInstant } from '#shared/time-zone.ts';
import { formatFolio } from '#shared/diplomas/diplomas.rules.ts';
import { sumHours } from '#shared/credits/credits.rules.ts';
import type {
  AdminCreditRow,
  CreditItem,
  CreditOfferInput,
  EvaluationInput,
  EvaluationState,
  LicenceInput,
  MyCredits,
  RevokeCreditInput,
} from '#shared/credits/credits.schemas.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import type { DiplomasService } from '#server/features/diplomas/diplomas.service.ts';
import type { CertificatesService } from '#server/features/diplomas/certificates.service.ts';
import { creditLinesOf } from './credits.text.ts';

type CreditRow = typeof credits.$inferSelect;
type OfferRow = typeof creditOffers.$inferSelect;

/** Continuing-education credit: the Admin's offer on a diploma, the member's evaluation, earning and revoking. */
export function createCreditsService(deps: {
  db: Db;
  diplomas: Pick<DiplomasService, 'attendanceOf' | 'findActive' | 'isEnrolled'>;
  certificates: Pick<CertificatesService, 'issue' | 'revoke' | 'downloadWithLines' | 'renderCreditCertificate'>;
  timeZone: string;
  now?: () => Date;
}) {
  const { db, diplomas, timeZone } = deps;
  const now = deps.now ?? (() => new Date());
  const localDate = (date: Date) => dateToZonedWallTime(date, timeZone).slice(0, 10);

  async function offerOf(diplomaId: string): Promise<OfferRow | null> {
    const [row] = await db.select().from(creditOffers).where(eq(creditOffers.diplomaId, diplomaId));
    return row ?? null;
  }

  /** The console's form values; null when the diploma gives no credit. */
  async function getOffer(diplomaId: string): Promise<CreditOfferInput | null> {
    const row = await offerOf(diplomaId);
    return row && offerInputOf(row);
  }

  async function saveOffer(diplomaId: string, input: CreditOfferInput): Promise<CreditOfferInput> {
    // an inactive diploma is still edited in the console
    const [diploma] = await db.select({ id: diplomaTable.id }).from(diplomaTable).where(eq(diplomaTable.id, diplomaId));
    if (!diploma) throw new AppError('NOT_FOUND');
    const values = offerColumnsOf(input, now());
    await db
      .insert(creditOffers)
      .values({ diplomaId, ...values })
      .onConflictDoUpdate({ target: creditOffers.diplomaId, set: values });
    return (await getOffer(diplomaId))!;
  }

  async function removeOffer(diplomaId: string): Promise<void> {
    await db.delete(creditOffers).where(eq(creditOffers.diplomaId, diplomaId));
  }

  async function evaluationOf(userId: string, diplomaId: string) {
    const [row] = await db
      .select()
      .from(courseEvaluations)
      .where(and(eq(courseEvaluations.userId, userId), eq(courseEvaluations.diplomaId, diplomaId)));
    return row ?? null;
  }

  async function creditOf(userId: string, diplomaId: string): Promise<CreditRow | null> {
    const [row] = await db
      .select()
      .from(credits)
      .where(and(eq(credits.userId, userId), eq(credits.diplomaId, diplomaId)));
    return row ?? null;
  }

  /** What the course page shows under the last item: the offer, whether the evaluation opens, what was earned. */
  async function evaluationState(user: UserRow, diplomaId: string): Promise<EvaluationState> {
    await diplomas.findActive(diplomaId);
    if (!(await diplomas.isEnrolled(user.id, diplomaId))) throw new AppError('FORBIDDEN');
    const offer = await offerOf(diplomaId);
    if (!offer) return { offer: null, canAnswer: false, sentAt: null, credit: null };
    const [attendance, evaluation, credit] = await Promise.all([
      diplomas.attendanceOf(diplomaId, user.id),
      evaluationOf(user.id, diplomaId),
      creditOf(user.id, diplomaId),
    ]);
    return evaluationStateOf(offer, attendance.isComplete, evaluation, credit);
  }

  /**
   * The member's evaluation, accepted once the diploma is complete by the watched rule and the exams; the first
   * answers stay (sent twice counts once). Earns the credit when everything holds at this moment.
   */
  async function submitEvaluation(user: UserRow, diplomaId: string, input: EvaluationInput): Promise<EvaluationState> {
    await diplomas.findActive(diplomaId);
    if (!(await diplomas.isEnrolled(user.id, diplomaId))) throw new AppError('FORBIDDEN');
    if (!(await offerOf(diplomaId))) throw new AppError('NOT_FOUND');
    const attendance = await diplomas.attendanceOf(diplomaId, user.id);
    if (!attendance.isComplete) throw new AppError('CREDIT_EVALUATION_LOCKED');
    await db
      .insert(courseEvaluations)
      .values({ userId: user.id, diplomaId, answers: input.answers, comment: input.comment ?? '', submittedAt: now() })
      .onConflictDoNothing();
    await earn(user, diplomaId);
    return evaluationState(user, diplomaId);
  }

  /** Grants the credit once, frozen with its proof, when offer, validity, attendance and evaluation all hold. */
  async function earn(user: UserRow, diplomaId: string): Promise<CreditRow | null> {
    const existing = await creditOf(user.id, diplomaId);
    if (existing) return existing;
    const [offer, evaluation, attendance] = await Promise.all([
      offerOf(diplomaId),
      evaluationOf(user.id, diplomaId),
      diplomas.attendanceOf(diplomaId, user.id),
    ]);
    const at = now();
    const today = localDate(at);
    if (!offer || !evaluation || !attendance.isComplete || !attendance.beganAt) return null;
    if (today < offer.validFrom || today > offer.validUntil) return null;
    const certificate = await deps.certificates.issue(user, diplomaId);
    if (certificate.revokedAt) return null;
    const [row] = await db
      .insert(credits)
      .values({
        userId: user.id,
        diplomaId,
        certificateId: certificate.id,
        evaluationId: evaluation.id,
        title: attendance.diploma.title,
        holderName: user.name,
        licenceNumber: user.licenceNumber,
        hours: offer.hours,
        category: offer.category,
        deliveryMethod: offer.deliveryMethod,
        bodies: offer.bodies,
        startedAt: attendance.beganAt,
        earnedAt: at,
        proof: {
          videos: attendance.videos.map(({ title, watchedPercent }) => ({ title, watchedPercent })),
          exams: attendance.exams.map(({ title, scorePercent }) => ({ title, scorePercent: scorePercent ?? 0 })),
          evaluationId: evaluation.id,
        },
      })
      .onConflictDoNothing()
      .returning();
    return row ?? creditOf(user.id, diplomaId);
  }

  async function rowsOfUser(userId: string) {
    return db
      .select({
        credit: credits,
        folio: certificates.folio,
        verificationCode: certificates.verificationCode,
        certificateRevokedAt: certificates.revokedAt,
        evaluationSentAt: courseEvaluations.submittedAt,
      })
      .from(credits)
      .leftJoin(certificates, eq(certificates.id, credits.certificateId))
      .leftJoin(courseEvaluations, eq(courseEvaluations.id, credits.evaluationId))
      .where(eq(credits.userId, userId))
      .orderBy(desc(credits.earnedAt));
  }

  function itemOf(row: Awaited<ReturnType<typeof rowsOfUser>>[number]): CreditItem {
    const { credit } = row;
    const revokedAt = credit.revokedAt ?? row.certificateRevokedAt;
    const watched = credit.proof.videos.map((video) => video.watchedPercent);
    return {
      id: credit.id,
      title: credit.title,
      hours: credit.hours,
      category: credit.category,
      deliveryMethod: credit.deliveryMethod,
      bodies: credit.bodies,
      startedAt: credit.startedAt.toISOString(),
      earnedAt: credit.earnedAt.toISOString(),
      watchedPercent: watched.length ? Math.min(...watched) : 100,
      exams: credit.proof.exams,
      evaluationSentAt: (row.evaluationSentAt ?? credit.earnedAt).toISOString(),
      // a procedure's credit carries its own folio and code (decision 049)
      folio: row.folio !== null ? formatFolio(row.folio) : credit.folio !== null ? formatFolio(credit.folio) : null,
      verificationCode: row.verificationCode ?? credit.verificationCode,
      revokedAt: revokedAt?.toISOString() ?? null,
    };
  }

  function byBody(items: CreditItem[]) {
    const hours = new Map<string, number[]>();
    for (const item of items)
      for (const body of item.bodies) hours.set(body.name, [...(hours.get(body.name) ?? []), item.hours]);
    return [...hours.entries()]
      .map(([body, values]) => ({ body, hours: sumHours(values) }))
      .sort((a, b) => a.body.localeCompare(b.body, 'es'));
  }

  /** 'Mis créditos': every credited item with its proof; revoked ones are listed but count nowhere. */
  async function listForUser(user: UserRow): Promise<MyCredits> {
    const items = (await rowsOfUser(user.id)).map(itemOf);
    const counted = items.filter((item) => item.revokedAt === null);
    const years = [...new Set(counted.map((item) => yearOf(item.earnedAt)))].sort((a, b) => b - a);
    return {
      licenceNumber: user.licenceNumber,
      items,
      byBody: byBody(counted),
      byYear: years.map((year) => {
        const ofYear = counted.filter((item) => yearOf(item.earnedAt) === year);
        return { year, hours: sumHours(ofYear.map((item) => item.hours)), byBody: byBody(ofYear) };
      }),
    };
  }

  function yearOf(iso: string): number {
    return Number(localDate(new Date(iso)).slice(0, 4));
  }

  async function saveLicence(user: UserRow, input: LicenceInput): Promise<void> {
    await db.update(users).set({ licenceNumber: input.licenceNumber }).where(eq(users.id, user.id));
  }

  /** The member's own certificate with the credit's lines; a revoked credit has none. */
  async function certificatePdf(user: UserRow, creditId: string) {
    const [row] = (await rowsOfUser(user.id)).filter((each) => each.credit.id === creditId);
    if (!row) throw new AppError('NOT_FOUND');
    const item = itemOf(row);
    if (item.revokedAt) throw new AppError('NOT_FOUND');
    const { credit } = row;
    if (credit.certificateId)
      return deps.certificates.downloadWithLines(user.id, credit.certificateId, creditLinesOf(item));
    if (credit.folio === null || credit.verificationCode === null) throw new AppError('NOT_FOUND');
    return deps.certificates.renderCreditCertificate({
      holderName: credit.holderName,
      title: credit.title,
      folio: credit.folio,
      verificationCode: credit.verificationCode,
      earnedAt: credit.earnedAt,
      creditLines: creditLinesOf(item),
    });
  }

  /** The member's unrevoked items earned in one year (the transcript and its checks). */
  async function itemsOfYear(user: UserRow, year: number): Promise<CreditItem[]> {
    return (await rowsOfUser(user.id))
      .map(itemOf)
      .filter((item) => item.revokedAt === null && yearOf(item.earnedAt) === year)
      .reverse();
  }

  /** Console: a diploma's credited members. */
  async function listForDiploma(diplomaId: string): Promise<AdminCreditRow[]> {
    const rows = await db
      .select({ credit: credits, folio: certificates.folio, certificateRevokedAt: certificates.revokedAt })
      .from(credits)
      .leftJoin(certificates, eq(certificates.id, credits.certificateId))
      .where(eq(credits.diplomaId, diplomaId))
      .orderBy(asc(credits.earnedAt));
    return rows.map(({ credit, folio, certificateRevokedAt }) =>
      adminCreditRowOf(credit, folio, credit.revokedAt ?? certificateRevokedAt),
    );
  }

  /** Console: the credit and its certificate are revoked on the date given (never a later day than today). */
  async function revoke(creditId: string, input: RevokeCreditInput): Promise<void> {
    const revokedAt = revocationInstant(input.revokedOn, now(), timeZone);
    if (!revokedAt)
      throw new AppError('VALIDATION', { fields: { revokedOn: 'La fecha no puede ser posterior a hoy.' } });
    const [credit] = await db.select().from(credits).where(eq(credits.id, creditId));
    if (!credit) throw new AppError('NOT_FOUND');
    await db.update(credits).set({ revokedAt, revokeReason: input.reason }).where(eq(credits.id, creditId));
    if (credit.certificateId) await deps.certificates.revoke(credit.certificateId, input.reason, revokedAt);
  }

  return {
    getOffer,
    saveOffer,
    removeOffer,
    evaluationState,
    submitEvaluation,
    listForUser,
    saveLicence,
    certificatePdf,
    itemsOfYear,
    listForDiploma,
    revoke,
    localDate,
  };
}

export type CreditsService = ReturnType<typeof createCreditsService>;
