import { AppError, errorCodes, statusErrorCodes, type ErrorBody, type ErrorCode } from '#shared/errors.ts';
import { errorMessages, offlineMessage } from '#shared/error-messages.ts';

/** An AppError rebuilt from an API answer, keeping the HTTP status and the modal title. */
export class ApiError extends AppError {
  readonly status: number;
  readonly title: string | undefined;

  constructor(status: number, body: ErrorBody) {
    super(body.code, { message: body.message, fields: body.fields });
    this.name = 'ApiError';
    this.status = status;
    this.title = body.title ?? errorMessages[body.code].title;
  }
}

// an answer without our error body (a proxy's page, an empty 502) gets the generic code of its status in the error table
const codeByStatus = new Map(statusErrorCodes.map((code) => [errorMessages[code].status, code] as const));

function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (errorCodes as readonly string[]).includes(value);
}

function toErrorBody(status: number, payload: unknown): ErrorBody {
  const candidate = (payload ?? {}) as Partial<ErrorBody>;
  if (isErrorCode(candidate.code)) {
    return {
      code: candidate.code,
      message: candidate.message || errorMessages[candidate.code].message,
      title: candidate.title,
      fields: candidate.fields,
    };
  }
  const code = codeByStatus.get(status) ?? 'INTERNAL';
  return { code, message: errorMessages[code].message };
}

/** A request that never reached the server: 'Sin conexión a internet' when the browser knows it is offline. */
function unreachable(): ApiError {
  const body = toErrorBody(503, undefined);
  return new ApiError(0, globalThis.navigator?.onLine === false ? { ...body, message: offlineMessage } : body);
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

type RequestOptions = { signal?: AbortSignal; headers?: Record<string, string>; keepalive?: boolean };

/** Calls the API; resolves with the JSON body (undefined for 204) or throws an ApiError. */
async function apiRequest<T>(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<T> {
  const isForm = body instanceof FormData;
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (body !== undefined && !isForm) headers['content-type'] = 'application/json';

  let response: Response;
  for (let attempt = 0; ; attempt++) {
    try {
      response = await fetch(path, {
        method,
        headers,
        credentials: 'same-origin',
        signal: options.signal,
        keepalive: options.keepalive,
        body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
      });
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') throw error;
      throw unreachable();
    }
    // only a read is sent again: a write answered 503 may be shown to the member, who decides
    if (response.status !== 503 || method !== 'GET' || attempt >= unavailableRetries) break;
    await wait(retryWaitMs(response), options.signal);
  }

  const payload = await readJson(response);
  if (!response.ok) throw new ApiError(response.status, toErrorBody(response.status, payload));
  return payload as T;
}

/** Quiet retries of a read answered 503 (the database restarting) before 'El servicio no está disponible'. */
const unavailableRetries = 2;
const maxRetryWaitMs = 3000;

function retryWaitMs(response: Response): number {
  const seconds = Number(response.headers.get('retry-after'));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds * 1000, maxRetryWaitMs) : 1000;
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** A query string from the set values only (`?a=1&b=x`), or '' when none is set. */
export function queryString(params: Record<string, string | number | boolean | null | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '' && value !== false) search.set(name, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** Fetches a file and saves it under the server's Content-Disposition name; errors come back as ApiError. */
export async function downloadFile(path: string, fallbackName: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin' });
  } catch {
    throw unreachable();
  }
  if (!response.ok) throw new ApiError(response.status, toErrorBody(response.status, await readJson(response)));
  const name = /filename="?([^";]+)"?/i.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => apiRequest<T>('GET', path, undefined, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('POST', path, body, options),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('PUT', path, body, options),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('PATCH', path, body, options),
  delete: <T>(path: string, options?: RequestOptions) => apiRequest<T>('DELETE', path, undefined, options),
};
