import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { courseEvaluations, credits, procedureCreditOffers } from '#server/db/schema/index.ts';
import { adminCreditRowOf, evaluationStateOf, offerColumnsOf, offerInputOf } from './credit-offers.ts';
import { AppError } from '#shared/errors.ts';
import type {
  AdminCreditRow,
  CreditOfferInput,
  EvaluationInput,
  EvaluationState,
} from '#shared/credits/credits.schemas.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import type { CatalogService } from '#server/features/catalog/catalog.service.ts';
import type { WatchedTimeService } from '#server/features/watching/watched-time.service.ts';
import { newVerificationCode } from '#server/features/diplomas/certificates.service.ts';

type CreditRow = typeof credits.$inferSelect;
type OfferRow = typeof procedureCreditOffers.$inferSelect;

/**
 * Continuing-education credit on a catalogue procedure (decision 049): the Admin's offer, the member's
 * evaluation once the full video is watched by the watched rule, and the credit with its own folio and code.
 */
export function createProcedureCreditsService(deps: {
  db: Db;
  catalog: Pick<CatalogService, 'canWatchFull' | 'find'>;
  watchedTime: Pick<WatchedTimeService, 'ofProcedures'>;
  localDate: (date: Date) => string;
  now?: () => Date;
}) {
  const { db, catalog, watchedTime, localDate } = deps;
  const now = deps.now ?? (() => new Date());

  async function offerOf(procedureId: string): Promise<OfferRow | null> {
    const [row] = await db
      .select()
      .from(procedureCreditOffers)
      .where(eq(procedureCreditOffers.procedureId, procedureId));
    return row ?? null;
  }

  async function getOffer(procedureId: string): Promise<CreditOfferInput | null> {
    if (!(await catalog.find(procedureId))) throw new AppError('NOT_FOUND');
    const row = await offerOf(procedureId);
    return row && offerInputOf(row);
  }

  async function saveOffer(procedureId: string, input: CreditOfferInput): Promise<CreditOfferInput> {
    if (!(await catalog.find(procedureId))) throw new AppError('NOT_FOUND');
    const values = offerColumnsOf(input, now());
    await db
      .insert(procedureCreditOffers)
      .values({ procedureId, ...values })
      .onConflictDoUpdate({ target: procedureCreditOffers.procedureId, set: values });
    return (await getOffer(procedureId))!;
  }

  async function removeOffer(procedureId: string): Promise<void> {
    if (!(await catalog.find(procedureId))) throw new AppError('NOT_FOUND');
    await db.delete(procedureCreditOffers).where(eq(procedureCreditOffers.procedureId, procedureId));
  }

  /** Only a member the procedure page gives the full video may evaluate it or earn its credit. */
  async function requireFullAccess(user: UserRow, procedureId: string) {
    const access = await catalog.canWatchFull(user, procedureId);
    if (access === null) throw new AppError('NOT_FOUND');
    if (!access) throw new AppError('FORBIDDEN');
  }

  async function evaluationOf(userId: string, procedureId: string) {
    const [row] = await db
      .select()
      .from(courseEvaluations)
      .where(and(eq(courseEvaluations.userId, userId), eq(courseEvaluations.procedureId, procedureId)));
    return row ?? null;
  }

  async function creditOf(userId: string, procedureId: string): Promise<CreditRow | null> {
    const [row] = await db
      .select()
      .from(credits)
      .where(and(eq(credits.userId, userId), eq(credits.procedureId, procedureId)));
    return row ?? null;
  }

  async function watchedOf(userId: string, procedureId: string) {
    return (await watchedTime.ofProcedures(userId, [procedureId])).get(procedureId) ?? null;
  }

  /** What the procedure page shows under the player: the offer, whether the evaluation opens, what was earned. */
  async function evaluationState(user: UserRow, procedureId: string): Promise<EvaluationState> {
    await requireFullAccess(user, procedureId);
    const offer = await offerOf(procedureId);
    if (!offer) return { offer: null, canAnswer: false, sentAt: null, credit: null };
    const [watched, evaluation, credit] = await Promise.all([
      watchedOf(user.id, procedureId),
      evaluationOf(user.id, procedureId),
      creditOf(user.id, procedureId),
    ]);
    return evaluationStateOf(offer, watched?.isWatched ?? false, evaluation, credit);
  }

  /** Accepted once the full video is watched by the watched rule; the first answers stay (sent twice counts once). */
  async function submitEvaluation(
    user: UserRow,
    procedureId: string,
    input: EvaluationInput,
  ): Promise<EvaluationState> {
    await requireFullAccess(user, procedureId);
    if (!(await offerOf(procedureId))) throw new AppError('NOT_FOUND');
    if (!(await watchedOf(user.id, procedureId))?.isWatched) throw new AppError('CREDIT_EVALUATION_LOCKED');
    await db
      .insert(courseEvaluations)
      .values({
        userId: user.id,
        procedureId,
        answers: input.answers,
        comment: input.comment ?? '',
        submittedAt: now(),
      })
      .onConflictDoNothing();
    await earn(user, procedureId);
    return evaluationState(user, procedureId);
  }

  /**
   * Grants the credit once, frozen with its proof, when offer, validity, the watched rule and the evaluation
   * all hold; its folio is the next in this procedure, taken under a per-procedure lock.
   */
  async function earn(user: UserRow, procedureId: string): Promise<CreditRow | null> {
    const existing = await creditOf(user.id, procedureId);
    if (existing) return existing;
    const [offer, evaluation, watched, procedure] = await Promise.all([
      offerOf(procedureId),
      evaluationOf(user.id, procedureId),
      watchedOf(user.id, procedureId),
      catalog.find(procedureId),
    ]);
    const at = now();
    const today = localDate(at);
    if (!offer || !evaluation || !watched?.isWatched || !procedure) return null;
    if (today < offer.validFrom || today > offer.validUntil) return null;
    const inserted = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`credit-folio:${procedureId}`}))`);
      return tx
        .insert(credits)
        .values({
          userId: user.id,
          procedureId,
          folio: sql`(select coalesce(max(${credits.folio}), 0) + 1 from ${credits} where ${credits.procedureId} = ${procedureId})`,
          verificationCode: newVerificationCode(),
          evaluationId: evaluation.id,
          title: procedure.name,
          holderName: user.name,
          licenceNumber: user.licenceNumber,
          hours: offer.hours,
          category: offer.category,
          deliveryMethod: offer.deliveryMethod,
          bodies: offer.bodies,
          // the watched rule keeps no first-play moment: the start is the evaluation, sent once the video was watched
          startedAt: evaluation.submittedAt,
          earnedAt: at,
          proof: {
            videos: [{ title: procedure.name, watchedPercent: watched.watchedPercent }],
            exams: [],
            evaluationId: evaluation.id,
          },
        })
        .onConflictDoNothing()
        .returning();
    });
    return inserted[0] ?? creditOf(user.id, procedureId);
  }

  /** Console: a procedure's credited members. */
  async function listForProcedure(procedureId: string): Promise<AdminCreditRow[]> {
    if (!(await catalog.find(procedureId))) throw new AppError('NOT_FOUND');
    const rows = await db
      .select()
      .from(credits)
      .where(eq(credits.procedureId, procedureId))
      .orderBy(asc(credits.earnedAt));
    return rows.map((credit) => adminCreditRowOf(credit, credit.folio, credit.revokedAt));
  }

  return { getOffer, saveOffer, removeOffer, evaluationState, submitEvaluation, listForProcedure };
}

export type ProcedureCreditsService = ReturnType<typeof createProcedureCreditsService>;
