import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Auth } from './auth.ts';
import { clientIpHeader } from './auth.ts';

const forwardedHeaders = [
  'cookie',
  'origin',
  'referer',
  'user-agent',
  'sec-fetch-site',
  'sec-fetch-mode',
  'sec-fetch-dest',
];

/** Headers better-auth may see: the client's own, with the IP our server decided on. */
export function authHeaders(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const name of forwardedHeaders) {
    const value = request.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  headers.set(clientIpHeader, request.ip);
  return headers;
}

export type AuthCall = {
  status: number;
  body: { code?: string; message?: string } & Record<string, unknown>;
  setCookies: string[];
};

/** Runs one better-auth endpoint through its HTTP handler, so its rate limits and CSRF checks apply. */
export async function callAuth(
  auth: Auth,
  request: FastifyRequest,
  endpoint: string,
  init: { method: 'GET' | 'POST'; body?: unknown },
): Promise<AuthCall> {
  const headers = authHeaders(request);
  if (init.body !== undefined) headers.set('content-type', 'application/json');
  const url = new URL(`/api/auth${endpoint}`, auth.options.baseURL as string);
  const response = await auth.handler(
    new Request(url, {
      method: init.method,
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }),
  );
  const text = await response.text();
  let body: AuthCall['body'] = {};
  try {
    body = text ? (JSON.parse(text) as AuthCall['body']) : {};
  } catch {
    body = {};
  }
  return { status: response.status, body, setCookies: response.headers.getSetCookie() };
}

export function forwardCookies(reply: FastifyReply, setCookies: string[]): void {
  if (setCookies.length > 0) reply.header('set-cookie', setCookies);
}
