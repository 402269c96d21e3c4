export const userTypes = ['Gest', 'Gratis', 'Premium', 'Legacy', 'Admin'] as const;
export type UserType = (typeof userTypes)[number];

/** Types stored on an account; Gest only describes a visitor without one. */
export const accountTypes = ['Gratis', 'Premium', 'Legacy', 'Admin'] as const;
export type AccountType = (typeof accountTypes)[number];

export const paymentStatuses = ['BIEN', 'POR_TERMINAR', 'CANCELLED', 'FALLIDO'] as const;
type PaymentStatus = (typeof paymentStatuses)[number];

export const minPasswordLength = 6;

type MembershipFacts = { type: AccountType; terminationDate: Date | string | null; paymentStatus?: PaymentStatus };

/** Premium benefits: Premium, Admin, Legacy until its termination date, and a downgrade (POR_TERMINAR) until its paid period ends. */
export function hasPremiumAccess(user: MembershipFacts | null, now: Date = new Date()): boolean {
  if (!user) return false;
  if (user.type === 'Premium' || user.type === 'Admin') return true;
  if (user.type === 'Gratis' && user.paymentStatus === 'POR_TERMINAR') {
    return user.terminationDate !== null && new Date(user.terminationDate).getTime() > now.getTime();
  }
  if (user.type !== 'Legacy') return false;
  if (user.terminationDate === null) return true;
  return new Date(user.terminationDate).getTime() > now.getTime();
}

/** The type a visitor is treated as: a missing account is a guest. */
export function effectiveType(user: { type: AccountType } | null): UserType {
  return user ? user.type : 'Gest';
}

/** The one test for an Admin account: the console's guard and every 'Admins pass' rule use it. */
export function isAdmin(user: { type: UserType } | null | undefined): boolean {
  return user?.type === 'Admin';
}
