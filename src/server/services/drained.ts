import type { Writable } from 'node:stream';

/**
 * Resolves once `stream` can take more, or is gone (a reader that went away never drains): for a writer that waits
 * while its reader is slower, without waiting forever for one that left.
 */
export function drainedOrClosed(stream: Writable): Promise<void> {
  if (stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}
