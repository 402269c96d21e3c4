import { describe, expect, it } from 'vitest';
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
