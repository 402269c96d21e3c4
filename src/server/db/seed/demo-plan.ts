import { fileURLToPath } from 'node:url';
import type { Db } from '#server/db/client.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';

export const assetsDir = fileURLToPath(new URL('../../../../assets/demo/', import.meta.url));
export const dayMs = 86_400_000;

/** What every part of the demo shares while it is planned: the clock and the files to copy before any row. */
export type DemoPlan = {
  now: Date;
  ts: number;
  /** Remembers that this storage key gets this file of assets/demo, and answers the key. */
  store: (key: string, file: string) => string;
};

/** The demo accounts the rows refer to, once created. */
export type DemoPeople = {
  basic: UserRow;
  premium: UserRow;
  classroomAdmin: UserRow;
  diplomaAdmin: UserRow;
};

/** One part of the demo, planned (its rows built and its files listed) before anything is written. */
export type DemoPart = { insert: (tx: Db, people: DemoPeople) => Promise<void> };

/** 10:00 in Mexico City, `days` from now. */
export function eventDay(now: Date, days: number): Date {
  const date = new Date(now.getTime() + days * dayMs);
  date.setUTCHours(16, 0, 0, 0);
  return date;
}

export function req<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`demo seed: missing ${what}`);
  return value;
}
