import { afterEach, describe, expect, it, vi } from 'vitest';
import { argon2AtOnce } from './auth.ts';

// How many password hashes run at once: two of libuv's threads stay free for file reads and zlib (decision 047), and
// one core for the event loop and the database (decision 055).
describe('password hashes at once', () => {
  it.each([
    [4, 2, 1],
    [4, 4, 2],
    [4, 16, 2],
    [8, 4, 3],
    [16, 8, 7],
    [1, 1, 1],
    [4, 1, 1],
  ])('%i libuv threads on %i cores: %i', (threads, cores, expected) => {
    expect(argon2AtOnce(threads, cores)).toBe(expected);
  });
});

// what a production start picks: the module reads the machine's cores and libuv's pool once, when it loads
describe('the password hashes a started server runs at once', () => {
  afterEach(() => {
    vi.doUnmock('node:os');
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  async function startedOn(cores: number, threads?: string) {
    vi.resetModules();
    vi.doMock('node:os', async (original) => ({
      ...(await original<typeof import('node:os')>()),
      availableParallelism: () => cores,
    }));
    if (threads) vi.stubEnv('UV_THREADPOOL_SIZE', threads);
    else vi.stubEnv('UV_THREADPOOL_SIZE', undefined);
    return (await import('./auth.ts')).argon2Work.concurrency;
  }

  it.each([
    [2, undefined, 1],
    [8, undefined, 2],
    [8, '16', 7],
  ])('on %i cores with UV_THREADPOOL_SIZE %s: %i', async (cores, threads, expected) => {
    expect(await startedOn(cores, threads)).toBe(expected);
  });
});
