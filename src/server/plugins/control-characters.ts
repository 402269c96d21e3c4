import type { FastifyInstance } from 'fastify';
import { AppError } from '#shared/errors.ts';
import { messages } from '#shared/messages.ts';

/** Deeper JSON than this is refused: no form of ours nests more than a few levels. */
export const maxJsonDepth = 64;

/** Whether JSON text nests arrays and objects deeper than `limit`: one linear scan, before anything parses it. */
export function jsonNestsDeeper(text: string, limit = maxJsonDepth): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      // a backslash escapes the next character, a quote included
      if (code === 0x5c) index += 1;
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) inString = true;
    else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > limit) return true;
    } else if (code === 0x5d || code === 0x7d) depth -= 1;
  }
  return false;
}

type Frame = { value: unknown; key: string; depth: number; parent: Frame | null };

const pathOf = (frame: Frame, last?: string): string => {
  const keys = last === undefined ? [] : [last];
  for (let at: Frame | null = frame; at?.parent; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.') || '_';
};

/**
 * The path of the first string (value or key) holding a NUL byte, or null; PostgreSQL cannot store one in text.
 * Walks without recursion and throws NESTING_TOO_DEEP past `maxDepth` levels, so no input can exhaust the stack.
 */
export function findNulByte(value: unknown, maxDepth = maxJsonDepth): string | null {
  const stack: Frame[] = [{ value, key: '', depth: 0, parent: null }];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const current = frame.value;
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return pathOf(frame);
      continue;
    }
    if (!current || typeof current !== 'object' || Buffer.isBuffer(current)) continue;
    if (frame.depth >= maxDepth) throw new AppError('NESTING_TOO_DEEP');
    const keys = Object.keys(current);
    const nulKey = keys.find((key) => key.includes('\u0000'));
    if (nulKey !== undefined) return pathOf(frame, '_');
    // pushed last to first, so the first field is looked at first
    for (let index = keys.length - 1; index >= 0; index -= 1) {
      const key = keys[index]!;
      stack.push({ value: (current as Record<string, unknown>)[key], key, depth: frame.depth + 1, parent: frame });
    }
  }
  return null;
}

/**
 * JSON bodies nested deeper than `maxJsonDepth` are refused before they are parsed; a NUL byte anywhere in the path
 * parameters, query string or body of any route gets the usual 400, before the route's own schema and long before
 * the database (which would answer with a 500).
 */
export function registerControlCharacterCheck(app: FastifyInstance): void {
  // Fastify's own parser, with its defaults against prototype poisoning
  const parseJson = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonNestsDeeper(body as string)) {
      done(new AppError('NESTING_TOO_DEEP'), undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
  app.addHook('preValidation', async (request) => {
    for (const part of [request.params, request.query, request.body]) {
      const field = findNulByte(part);
      if (field !== null) throw new AppError('VALIDATION', { fields: { [field]: messages.nulCharacter } });
    }
  });
}
