import type { FastifyReply } from 'fastify';
import type { OpenedFile } from '#server/services/storage.ts';
import { drainedOrClosed } from '#server/services/drained.ts';

/**
 * Buffers for the stored files the app sends itself, used again once the socket has taken them. A new 1 MiB buffer
 * per range request (or per chunk of a stream) is memory outside V8's heap; at a few thousand ranges a second V8
 * answered it with a full collection every few dozen milliseconds, which cost several times the reading and
 * writing themselves (docs/decisions/020-reused-file-buffers.md).
 */
export type FileBuffer = {
  /** Exactly the requested length, on a buffer of `size` bytes. */
  bytes: Buffer;
  /** Gives the buffer back: call it only once nothing reads `bytes` any more (the answer has been written). */
  release(): void;
};

export function createFileBuffers(options: {
  /** Each buffer's size: a longer answer is sent a buffer at a time. */
  size: number;
  /** How many idle buffers are kept; more in use at once are made and let go. */
  keep: number;
}) {
  const idle: Buffer[] = [];
  return {
    size: options.size,
    /** A buffer for `length` bytes (at most `size`): an idle one or a new one. */
    take(length: number): FileBuffer {
      if (length > options.size)
        throw new RangeError(`a range of ${length} bytes is longer than the ${options.size}-byte buffers`);
      const whole = idle.pop() ?? Buffer.allocUnsafeSlow(options.size);
      let released = false;
      return {
        bytes: whole.subarray(0, length),
        release() {
          if (released) return;
          released = true;
          if (idle.length < options.keep) idle.push(whole);
        },
      };
    },
    /** Idle buffers, for tests. */
    get idle() {
      return idle.length;
    },
  };
}

export type FileBuffers = ReturnType<typeof createFileBuffers>;

/**
 * Answers with `range` (inclusive; null for an empty file) of a held-open file, one reused buffer at a time: each
 * buffer goes back to `buffers` once the socket has taken it (its write's callback), and the next one is read only
 * when the response can take more, so a slow player holds two buffers at most. The status and headers are the
 * reply's. The first buffer is read before anything is sent, so a failing read is still an ordinary error answer;
 * a read failing later cuts the connection, as a failing stream does. Resolves once the answer is written or cut.
 */
export async function sendFileRange(
  reply: FastifyReply,
  file: OpenedFile,
  range: { start: number; end: number } | null,
  buffers: FileBuffers,
): Promise<void> {
  let next = range?.start ?? 0;
  const end = range?.end ?? -1;
  const read = async () => {
    const length = Math.min(buffers.size, end - next + 1);
    const buffer = buffers.take(length);
    try {
      await file.bytes({ start: next, end: next + length - 1 }, buffer.bytes);
    } catch (error) {
      buffer.release();
      throw error;
    }
    next += length;
    return buffer;
  };
  const withBody = reply.request.method !== 'HEAD';
  let buffer = withBody && next <= end ? await read() : null;
  // from here on the answer is written here, not by Fastify (its onResponse hooks still run on 'finish')
  reply.hijack();
  const response = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) response.setHeader(name, value);
  response.writeHead(reply.statusCode);
  while (buffer) {
    const sent = buffer;
    const more = response.write(sent.bytes, (error) => {
      if (!error) sent.release();
    });
    if (next > end) break;
    if (!more) await drainedOrClosed(response);
    if (response.destroyed) return;
    try {
      buffer = await read();
    } catch (error) {
      reply.log.warn({ err: error }, 'a stored file could not be read while it was being sent');
      response.destroy();
      return;
    }
  }
  response.end();
}
