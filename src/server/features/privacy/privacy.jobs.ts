import type { Db } from '#server/db/client.ts';

export type Schedule = (
  kind: string,
  options?: { runAt?: Date; payload?: object; uniqueKey?: string; tx?: Db },
) => Promise<void>;

export const privacyJobKinds = {
  export: 'privacy.export',
  mail: 'privacy.mail',
  sweep: 'privacy.exports-sweep',
  reconcile: 'privacy.reconcile-deletions',
} as const;

export type PrivacyMail = { token: string } & (
  { kind: 'export-ready'; exportId: string } | { kind: 'account-deleted'; to: string; name: string; bySelf: boolean }
);
