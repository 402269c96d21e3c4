import type { CreditOfferInput } from '#shared/credits/credits.schemas.ts';

/** An offer approved by two bodies, valid for the tests' whole life; each test reads back its own hours and numbers. */
export function testCreditOffer(hours: string, approvalNumbers: [string, string]): CreditOfferInput {
  return {
    hours,
    category: 'surgical',
    deliveryMethod: 'selfPacedOnline',
    bodies: [
      { name: 'AAVSB RACE', approvalNumber: approvalNumbers[0] },
      { name: 'CONCERVET', approvalNumber: approvalNumbers[1] },
    ],
    validFrom: '2020-01-01',
    validUntil: '2099-12-31',
  };
}
