import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { logRequest } from '#server/plugins/request-log.ts';
import { isSafeKey } from '#server/services/storage.ts';
import type { SetSecurityHeaders } from '#server/plugins/security-headers.ts';
import type { MediaVisibility } from './media.service.ts';

/** Answers the request and returns true, or leaves it untouched and returns false. */
export type HandOverLane = ((request: IncomingMessage, response: ServerResponse) => boolean) & { answered(): number };

// a plain key and at most the viewing token; anything else (percent-encoding, ?w=, other parameters) is the route's
const plainRequest = /^\/media\/([A-Za-z0-9_.\-/]+)(?:\?vt=([A-Za-z0-9_-]+))?$/;

/**
 * Behind nginx (MEDIA_ACCEL_REDIRECT) a video plays as dozens of range requests of one file, and the /media route
 * answers each of them from what it remembers: the grant per session cookie and file, the account's current viewing
 * token, the file held open. When all three are remembered, this lane gives the same answer before Fastify: the
 * route's hand-over headers, the same security headers, one log line. Anything else goes to the route unchanged:
 * a first request, whatever is not remembered, every refusal, a playlist, HEAD, a server that is closing
 * (docs/decisions/021-media-hand-over-lane.md).
 */
export function createHandOverLane(deps: {
  rememberedVisibility: (
    key: string,
    cookie: string | undefined,
    viewingToken: string | undefined,
  ) => MediaVisibility | undefined;
  isHeldOpen: (key: string) => boolean;
  handOverHeaders: (key: string, visibility: MediaVisibility) => Record<string, string>;
  securityHeaders: SetSecurityHeaders;
  isClosing: () => boolean;
  log: FastifyBaseLogger;
}): HandOverLane {
  let answered = 0;
  const lane = (request: IncomingMessage, response: ServerResponse): boolean => {
    if (request.method !== 'GET' || deps.isClosing()) return false;
    const match = plainRequest.exec(request.url ?? '');
    if (!match) return false;
    const key = match[1]!;
    if (!isSafeKey(key) || key.endsWith('.m3u8')) return false;
    const visibility = deps.rememberedVisibility(key, request.headers.cookie, match[2]);
    if (!visibility || !deps.isHeldOpen(key)) return false;
    const started = performance.now();
    deps.securityHeaders(request, response);
    for (const [name, value] of Object.entries(deps.handOverHeaders(key, visibility))) response.setHeader(name, value);
    response.setHeader('content-length', '0');
    response.writeHead(200).end();
    answered++;
    // the route's line: with a remembered grant the route never looks the user up either
    logRequest(deps.log, {
      reqId: `lane-${answered.toString(36)}`,
      method: 'GET',
      route: '/media/*',
      status: 200,
      ms: Math.round(performance.now() - started),
      userId: null,
    });
    return true;
  };
  return Object.assign(lane, { answered: () => answered });
}
