export const userTypes = ['Gest', 'Gratis', 'Premium', 'Legacy', 'Admin'] as const;
export type UserType = (typeof userTypes)[number];

/** Types stored on an account; Gest only describes a visitor without one. */
export const accountTypes = ['Gratis', 'Premium', 'Legacy', 'Admin'] as const;
export type AccountType = (typeof accountTypes)[number];

export const paymentStatuses = ['BIEN', 'POR_TERMINAR', 'CANCELLED', 'FALLIDO'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

export const minPasswordLength = 6;

type MembershipFacts = { type: AccountType; terminationDate: Date | string | null };

/** Premium benefits: Premium, Admin, and Legacy until its termination date. */
export function hasPremiumAccess(user: MembershipFacts | null, now: Date = new Date()): boolean {
  if (!user) return false;
  if (user.type === 'Premium' || user.type === 'Admin') return true;
  if (user.type !== 'Legacy') return false;
  if (user.terminationDate === null) return true;
  return new Date(user.terminationDate).getTime() > now.getTime();
}

/** The type a visitor is treated as: a missing account is a guest. */
export function effectiveType(user: { type: AccountType } | null): UserType {
  return user ? user.type : 'Gest';
}
