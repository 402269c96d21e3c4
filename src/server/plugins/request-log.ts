import { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { loggedUserId } from './authorization.ts';

type LoggedError = {
  type: string;
  message: string;
  code?: string;
  stack?: string;
  cause?: LoggedError | DatabaseErrorSummary;
};
type DatabaseErrorSummary = {
  type: 'DatabaseError';
  code?: string;
  constraint?: string;
  table?: string;
  column?: string;
};

// Drizzle appends the query's parameters (names, e-mails, reset codes…) to its error message
const withoutParams = (text: string) => text.split('\nparams:')[0]!;

/**
 * Errors as the log may hold them: type, message and stack frames, never SQL parameters. A database error is
 * reduced to its code and the constraint/table/column it names, since its message may quote the offending value.
 */
export function serializeError(error: unknown, depth = 0): LoggedError | DatabaseErrorSummary {
  const value = error as {
    name?: string;
    message?: unknown;
    code?: unknown;
    stack?: unknown;
    cause?: unknown;
    severity?: unknown;
  } | null;
  if (value && typeof value === 'object' && typeof value.severity === 'string') {
    const db = value as { code?: string; constraint?: string; table?: string; column?: string };
    return { type: 'DatabaseError', code: db.code, constraint: db.constraint, table: db.table, column: db.column };
  }
  if (!value || typeof value !== 'object') return { type: typeof error, message: '' };
  const frames =
    typeof value.stack === 'string' ? value.stack.split('\n').filter((line) => line.startsWith('    at ')) : [];
  return {
    type: value.name ?? 'Error',
    message: withoutParams(String(value.message ?? '')),
    ...(typeof value.code === 'string' ? { code: value.code } : {}),
    ...(frames.length > 0 ? { stack: frames.join('\n') } : {}),
    ...(value.cause && depth < 3 ? { cause: serializeError(value.cause, depth + 1) } : {}),
  };
}

/**
 * Logger options: Fastify's own request lines are off (they carry URLs with tokens and reset codes); errors go
 * through serializeError.
 */
export function loggerOptions(
  level: string,
  stream?: NodeJS.WritableStream,
): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  const logController = new LogController({ disableRequestLogging: true });
  if (level === 'silent' && !stream) return { logger: false, logController };
  return {
    logger: {
      level,
      serializers: { err: (error: unknown) => serializeError(error) as never },
      ...(stream ? { stream } : {}),
    },
    logController,
  };
}

/** The request log's line: method, route pattern (not the URL), status, time and user id; reqId where the logger has none. */
export type RequestLine = {
  reqId?: string;
  method: string;
  route: string;
  status: number;
  ms: number;
  userId: string | null;
};

export function logRequest(log: Pick<FastifyBaseLogger, 'info'>, line: RequestLine): void {
  log.info(line, 'request');
}

/** One line per request, with Fastify's request id (reqId). */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    logRequest(request.log, {
      method: request.method,
      route: request.routeOptions.url ?? '(no route)',
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
      userId: loggedUserId(request),
    });
  });
}
