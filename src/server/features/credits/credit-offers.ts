import type { creditOffers, credits } from '#server/db/schema/index.ts';
import { formatHours, parseHours } from '#shared/credits/credits.rules.ts';
import { formatFolio } from '#shared/diplomas/diplomas.rules.ts';
import type { AdminCreditRow, CreditOfferInput, EvaluationState } from '#shared/credits/credits.schemas.ts';

// what a diploma's offer and a procedure's offer have alike: the same columns, shown and saved the same way
type OfferColumns = Pick<
  typeof creditOffers.$inferSelect,
  'hours' | 'category' | 'deliveryMethod' | 'bodies' | 'validFrom' | 'validUntil'
>;
type CreditRow = typeof credits.$inferSelect;

/** The console's form values of a stored offer. */
export function offerInputOf(row: OfferColumns): CreditOfferInput {
  return {
    hours: formatHours(row.hours),
    category: row.category,
    deliveryMethod: row.deliveryMethod,
    bodies: row.bodies,
    validFrom: row.validFrom,
    validUntil: row.validUntil,
  };
}

/** The columns the console's form values are stored as. */
export function offerColumnsOf(input: CreditOfferInput, updatedAt: Date) {
  return {
    hours: parseHours(input.hours)!,
    category: input.category,
    deliveryMethod: input.deliveryMethod,
    bodies: input.bodies.map((body) => ({ name: body.name, approvalNumber: body.approvalNumber })),
    validFrom: input.validFrom,
    validUntil: input.validUntil,
    updatedAt,
  };
}

/** What the member's page shows of an offer: whether the evaluation opens, when it was sent, what was earned. */
export function evaluationStateOf(
  offer: OfferColumns,
  canAnswer: boolean,
  evaluation: { submittedAt: Date } | null,
  credit: CreditRow | null,
): EvaluationState {
  return {
    offer: {
      hours: offer.hours,
      category: offer.category,
      deliveryMethod: offer.deliveryMethod,
      bodies: offer.bodies,
      validFrom: offer.validFrom,
      validUntil: offer.validUntil,
    },
    canAnswer,
    sentAt: evaluation?.submittedAt.toISOString() ?? null,
    credit: credit ? { id: credit.id, earnedAt: credit.earnedAt.toISOString(), hours: credit.hours } : null,
  };
}

/** A credited member in the console, with the folio and the revocation that apply to the credit. */
export function adminCreditRowOf(credit: CreditRow, folio: number | null, revokedAt: Date | null): AdminCreditRow {
  return {
    id: credit.id,
    holderName: credit.holderName,
    licenceNumber: credit.licenceNumber,
    hours: credit.hours,
    earnedAt: credit.earnedAt.toISOString(),
    folio: folio === null ? null : formatFolio(folio),
    revokedAt: revokedAt?.toISOString() ?? null,
    revokeReason: credit.revokeReason,
  };
}
