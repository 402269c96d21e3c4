import { errorMessages } from '#shared/error-messages.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '#shared/errors.ts';
import { api, ApiError } from './api-client.ts';

function answer(status: number, body?: unknown) {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(text || null, { status })),
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('api client', () => {
  it('resolves with the JSON body and sends JSON with same-origin credentials', async () => {
    answer(200, { user: null });
    await expect(api.post('/api/x', { a: 1 })).resolves.toEqual({ user: null });
    const [, init] = vi.mocked(fetch).mock.calls[0]!;
    expect(init).toMatchObject({ method: 'POST', credentials: 'same-origin', body: '{"a":1}' });
  });

  it('resolves with undefined for 204', async () => {
    answer(204);
    await expect(api.post('/api/account/logout')).resolves.toBeUndefined();
  });

  it('turns an error body back into an AppError with its code, message, title and fields', async () => {
    answer(401, { code: 'LOGIN_WRONG_PASSWORD', message: 'Contraseña incorrecta', fields: { password: 'x' } });
    const error = await api.post('/api/account/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'LOGIN_WRONG_PASSWORD',
      message: 'Contraseña incorrecta',
      fields: { password: 'x' },
      status: 401,
    });
  });

  it('takes the catalogue title for a code that has one', async () => {
    answer(500, { code: 'PASSWORD_CHANGE_FAILED', message: 'Hubo un error al cambiar password' });
    const error = await api.get('/api/x').catch((e: unknown) => e);
    expect((error as ApiError).title).toBe('ERROR CAMBIO DE PASSWORD');
  });

  it('maps a body without a known code to one by status, in Spanish', async () => {
    answer(502, '<html>Bad gateway</html>');
    const error = await api.get('/api/x').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INTERNAL', message: 'Ocurrió un error, intenta más tarde' });
  });

  it.each([
    [400, 'VALIDATION'],
    [401, 'UNAUTHENTICATED'],
    [403, 'FORBIDDEN'],
    [404, 'NOT_FOUND'],
    [409, 'CONFLICT'],
    [413, 'PAYLOAD_TOO_LARGE'],
    [416, 'RANGE_NOT_SATISFIABLE'],
    [429, 'RATE_LIMITED'],
    [412, 'INTERNAL'],
    [500, 'INTERNAL'],
  ] as const)('maps a %i without our body to the error table generic code %s', async (status, code) => {
    answer(status, '<html>proxy page</html>');
    const error = await api.post('/api/x', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code, status, message: errorMessages[code].message });
  });

  it('reports a network failure as SERVICE_UNAVAILABLE', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const error = await api.get('/api/x').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 0 });
  });

  it('sends a read answered 503 again after Retry-After, quietly, and gives up after two more tries', async () => {
    const unavailable = () =>
      new Response(JSON.stringify({ code: 'SERVICE_UNAVAILABLE', message: 'x' }), {
        status: 503,
        headers: { 'retry-after': '1' },
      });
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValueOnce(unavailable())
        .mockResolvedValueOnce(new Response(JSON.stringify({ user: { id: 'u' } }), { status: 200 })),
    );
    await expect(api.get('/api/me')).resolves.toEqual({ user: { id: 'u' } });
    expect(fetch).toHaveBeenCalledTimes(2);

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => unavailable()),
    );
    const error = await api.get('/api/me').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    expect(fetch).toHaveBeenCalledTimes(3);
  }, 10_000);

  it('never sends a write again by itself', async () => {
    answer(503, { code: 'SERVICE_UNAVAILABLE', message: 'x' });
    const error = await api.post('/api/x', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('says there is no internet connection when the browser is offline', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    vi.stubGlobal('navigator', { onLine: false });
    const error = await api.get('/api/x').catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      message: 'Sin conexión a internet. Revisa tu conexión e intenta de nuevo.',
    });
  });
});
