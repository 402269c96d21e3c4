// Apart from archive.ts so that the backups service names its archives and refusals without loading tar, pg and the
// archive code at every start; archive.ts is imported when a backup runs.

/** Archive names sort by date: cxvet-respaldo-20261123-213000-123.tar.gz */
export const archivePattern = /^cxvet-respaldo-\d{8}-\d{6}-\d{3}\.tar\.gz$/;

/** A refusal with a message meant for the person running the command or reading the console. */
export class BackupError extends Error {}
