import type { CurrentUser } from '#shared/accounts/accounts.schemas.ts';
import { isAdmin } from '#shared/accounts/accounts.rules.ts';
import { paths } from '#web/paths.ts';

/** Where a visitor must go instead of the requested page, or null to let them in. */
export type Guard = (user: CurrentUser | null) => string | null;

export const guards = {
  guestsOnly: (user) => (user ? (isAdmin(user) ? paths.admin : paths.home) : null),
  signedIn: (user) => (user ? null : paths.login),
  admin: (user) => (isAdmin(user) ? null : paths.login),
  premiumAccess: (user) => (user?.hasPremiumAccess || isAdmin(user) ? null : paths.home),
  classroomAdmin: (user) => {
    if (!user) return paths.login;
    return user.isClassroomAdmin || isAdmin(user) ? null : paths.home;
  },
  diplomaAdmin: (user) => {
    if (!user) return paths.login;
    return user.isDiplomaAdmin || isAdmin(user) ? null : paths.home;
  },
} satisfies Record<string, Guard>;
