import type { FastifyInstance } from 'fastify';
import { AppError } from '#shared/errors.ts';
import { messages } from '#shared/messages.ts';

/** The path of the first string (value or key) holding a NUL byte, or null. PostgreSQL cannot store one in text. */
export function findNulByte(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? path.join('.') || '_' : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findNulByte(item, [...path, String(index)]);
      if (found !== null) return found;
    }
    return null;
  }
  if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes('\u0000')) return [...path, '_'].join('.');
      const found = findNulByte(item, [...path, key]);
      if (found !== null) return found;
    }
  }
  return null;
}

/**
 * Refuses a NUL byte anywhere in the path parameters, query string or JSON body of any route with the usual 400,
 * before the route's own schema and long before the database (which would answer with a 500).
 */
export function registerControlCharacterCheck(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const field = findNulByte(part);
      if (field !== null) throw new AppError('VALIDATION', { fields: { [field]: messages.nulCharacter } });
    }
  });
}
