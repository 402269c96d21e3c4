const dayMs = 86_400_000;

/** Payment period lengths of spec 1 §9 (DESIGN.md: 30 days, not the admin spec's 31). */
export const periodMs = { monthly: 30 * dayMs, annual: 365.24 * dayMs } as const;

/** Next payment date: whole periods after paymentDay until it lies in the future. */
export function nextPaymentDate(paymentDay: Date, annualPlan: boolean, now: Date = new Date()): Date {
  const period = annualPlan ? periodMs.annual : periodMs.monthly;
  const start = paymentDay.getTime();
  const elapsed = now.getTime() - start;
  const periods = elapsed < 0 ? 1 : Math.floor(elapsed / period) + 1;
  return new Date(start + periods * period);
}

/** subscriptionId of a Premium granted by an administrator (spec 3), not billed by a provider. */
export const manualSubscriptionId = 'MANUAL';

/** A manual Premium lasts one period from its payment day. */
export function manualPremiumExpiry(paymentDay: Date, annualPlan: boolean): Date {
  return new Date(paymentDay.getTime() + (annualPlan ? periodMs.annual : periodMs.monthly));
}

export type ScheduledChange = 'downgradeEnded' | 'legacyEnded' | 'manualPremiumExpired';

type ScheduleFacts = {
  type: string;
  paymentStatus: string;
  paymentDay: Date | null;
  annualPlan: boolean;
  subscriptionId: string | null;
  terminationDate: Date | null;
};

/** The scheduled change that is due for an account now, if any (DESIGN.md: checkAccountMembership). */
export function dueScheduledChange(user: ScheduleFacts, now: Date = new Date()): ScheduledChange | null {
  const due = (date: Date | null) => date !== null && date.getTime() <= now.getTime();
  if (user.paymentStatus === 'POR_TERMINAR' && user.type === 'Gratis') {
    // a downgrade without a recorded end keeps nothing
    return user.terminationDate === null || due(user.terminationDate) ? 'downgradeEnded' : null;
  }
  if (user.type === 'Legacy' && due(user.terminationDate)) return 'legacyEnded';
  if (user.type === 'Premium' && user.subscriptionId === manualSubscriptionId && user.paymentDay) {
    return due(manualPremiumExpiry(user.paymentDay, user.annualPlan)) ? 'manualPremiumExpired' : null;
  }
  return null;
}
