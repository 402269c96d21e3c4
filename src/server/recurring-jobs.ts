import type { Config } from './config.ts';
import { maintenanceJobKind } from './db/maintenance.ts';
import { jobsPruneKind } from './services/jobs.ts';
import { backupJobKinds, scheduleEveryMs } from './features/backups/backups.service.ts';
import { reconcileJobKind } from './features/payments/payments.service.ts';
import { privacyJobKinds } from './features/privacy/privacy.jobs.ts';
import { creditRecordsPurgeJobKind } from './features/credits/credit-records.service.ts';
import { ltiJobKinds } from './features/lti/lti-grades.ts';
import { globalInvoiceJobKind } from './features/facturas/global-invoice.ts';

/** The jobs every instance keeps queued (the runner makes each run once across instances). */
export function recurringJobs(options: { embedded: boolean; backupSchedule: Config['backup']['schedule'] }) {
  const { embedded, backupSchedule } = options;
  return [
    { kind: privacyJobKinds.sweep, everyMs: 3600_000 },
    { kind: 'membership.sweep', everyMs: 15 * 60_000 },
    // once a day, the first an hour after the very first start: repairs what lost webhooks left behind
    { kind: reconcileJobKind, everyMs: 86_400_000, firstAfterMs: 3600_000 },
    { kind: 'rate-counters.prune', everyMs: 3600_000 },
    { kind: jobsPruneKind, everyMs: 86_400_000, firstAfterMs: 3600_000 },
    // the month's global invoice of the receipts nobody invoiced, issued on a day after the month ends
    { kind: globalInvoiceJobKind, everyMs: 86_400_000, firstAfterMs: 3600_000 },
    { kind: creditRecordsPurgeJobKind, everyMs: 86_400_000, firstAfterMs: 3600_000 },
    // results owed to LMS gradebooks, and the rosters of aulas linked to a course
    { kind: ltiJobKinds.collect, everyMs: 60_000 },
    { kind: ltiJobKinds.rosters, everyMs: 86_400_000, firstAfterMs: 3600_000 },
    // PostgreSQL has autovacuum; the embedded database has nothing else that vacuums or analyzes. Every minute, as
    // autovacuum looks (its naptime): statistics a bulk import made stale cost minutes per query (decision 060).
    // A minute after the very first start, so it never slows the start itself
    ...(embedded ? [{ kind: maintenanceJobKind, everyMs: 60_000, firstAfterMs: 60_000 }] : []),
    // the first one an hour after the very first start (not during set-up), then at the chosen interval
    ...(backupSchedule === 'off'
      ? []
      : [
          {
            kind: backupJobKinds.scheduled,
            everyMs: scheduleEveryMs[backupSchedule],
            firstAfterMs: Math.min(3600_000, scheduleEveryMs[backupSchedule]),
          },
        ]),
  ];
}
