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

/** subscriptionId of a 'Premium anual (pago único)' pass: this prefix and the payment that bought it; never renewed. */
export const prepaidPassPrefix = 'PASE:';

export function isPrepaidPass(subscriptionId: string | null): boolean {
  return subscriptionId?.startsWith(prepaidPassPrefix) ?? false;
}

/** A Premium no provider bills (granted by hand, or a pass paid once): it ends one period after its payment day. */
export function isUnbilledPremium(subscriptionId: string | null): boolean {
  return subscriptionId === manualSubscriptionId || isPrepaidPass(subscriptionId);
}

/** A manual Premium (or a pass) lasts one period from its payment day. */
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
  if (user.type === 'Premium' && isUnbilledPremium(user.subscriptionId) && user.paymentDay) {
    return due(manualPremiumExpiry(user.paymentDay, user.annualPlan)) ? 'manualPremiumExpired' : null;
  }
  return null;
}

/**
 * What a member may ask for, decided here once: the server enforces it and the profile shows it
 * (spec 1 §4, spec 3 §4). A Legacy account may do none of these: it keeps Premium benefits until its
 * termination date and then becomes Gratis by itself; a payment may still make it Premium.
 */
type ChangeFacts = { type: string; paymentStatus: string; subscriptionId: string | null; terminationDate: Date | null };

/** Gratis → Premium by paying; not while a downgrade is running (the member reactivates instead). */
export function canUpgrade(user: Pick<ChangeFacts, 'type' | 'paymentStatus'>): boolean {
  return user.type === 'Gratis' && user.paymentStatus !== 'POR_TERMINAR';
}

/** A paying Premium in good standing may stop billing; a manual Premium is ended by an administrator, a pass ends alone. */
export function canDowngrade(user: Pick<ChangeFacts, 'type' | 'paymentStatus' | 'subscriptionId'>): boolean {
  return user.type === 'Premium' && user.paymentStatus === 'BIEN' && !isUnbilledPremium(user.subscriptionId);
}

/** A downgrade can be undone until the paid period ends. */
export function canReactivate(
  user: Pick<ChangeFacts, 'type' | 'paymentStatus' | 'terminationDate'>,
  now: Date = new Date(),
): boolean {
  return (
    user.type === 'Gratis' &&
    user.paymentStatus === 'POR_TERMINAR' &&
    user.terminationDate !== null &&
    user.terminationDate > now
  );
}

/** Only a free account gets Premium by hand: a paying member keeps their subscription. */
export function canGrantManualPremium(user: Pick<ChangeFacts, 'type'>): boolean {
  return user.type === 'Gratis';
}

/** Only a Premium granted by hand is ended by hand. */
export function canEndManualPremium(user: Pick<ChangeFacts, 'subscriptionId'>): boolean {
  return user.subscriptionId === manualSubscriptionId;
}

/** The plan and payment state a new account starts with (sign-up and the console's new user): Gratis, nothing paid. */
export const newAccountMembership = {
  type: 'Gratis',
  paymentStatus: 'BIEN',
  annualPlan: false,
  paymentDay: null,
  subscriptionId: null,
  terminationDate: null,
} as const;

/** What is left of the membership of a deleted (anonymised) account. */
export const deletedAccountMembership = {
  type: 'Gratis',
  paymentStatus: 'CANCELLED',
  annualPlan: false,
  paymentDay: null,
  subscriptionId: null,
  terminationDate: null,
} as const;
