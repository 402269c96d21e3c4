import type { CurrentUser } from '#shared/accounts/accounts.schemas.ts';
import { isAdmin } from '#shared/accounts/accounts.rules.ts';
import { paths } from '#web/paths.ts';

/** Where a visitor must go instead of the requested page, or null to let them in. */
export type Guard = (user: CurrentUser | null) => string | null;

export const guards = {
  guestsOnly: (user) => (user ? (isAdmin(user) ? paths.admin : paths.home) : null),
  signedIn: (user) => (user ? null : paths.login),
  admin: (user) => (isAdmin(user) ? null : paths.login),
  premiumAccess: (user) => {
    if (!user) return paths.login;
    return user.hasPremiumAccess || isAdmin(user) ? null : paths.home;
  },
  classroomAdmin: (user) => {
    if (!user) return paths.login;
    return user.isClassroomAdmin || isAdmin(user) ? null : paths.home;
  },
  diplomaAdmin: (user) => {
    if (!user) return paths.login;
    return user.isDiplomaAdmin || isAdmin(user) ? null : paths.home;
  },
} satisfies Record<string, Guard>;

/** The query parameter of /login that holds the page to come back to after signing in. */
export const returnParam = 'volver';

/** '/login?volver=/mis-diplomados' for a guest sent away from a page that needs an account. */
export function loginReturningTo(pathAndSearch: string): string {
  return `${paths.login}?${new URLSearchParams({ [returnParam]: pathAndSearch }).toString()}`;
}

/** The page to open after signing in: only a path of this site, never another origin ('//host' or a URL). */
export function safeReturnPath(value: string | null): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}
