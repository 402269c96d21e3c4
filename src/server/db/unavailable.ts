// PostgreSQL's connection exceptions (class 08), shutdowns and "not yet accepting connections" (57P01-57P03)
const unavailableSqlStates = /^(08...|57P0[123])$/;
const unavailableNodeCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);
const unavailableMessages =
  /Connection terminated|not currently accepting connections|connection timeout|Client has encountered a connection error|Client was closed|database closed|the database thread (stopped|is restarting)|terminating connection/i;

/**
 * Is this error (or one of its causes, as Drizzle and better-auth wrap them) the database being out of reach, not a
 * fault of the query? Those are answered 503 with Retry-After, never 401, 403 or 500.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if (typeof current !== 'object') return false;
    const { code, message, cause } = current as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (unavailableSqlStates.test(code) || unavailableNodeCodes.has(code))) return true;
    if (typeof message === 'string' && unavailableMessages.test(message)) return true;
    current = cause;
  }
  return false;
}

/** Seconds a client should wait before trying again while the database is out of reach. */
export const retryAfterSeconds = 2;
