import { describe, expect, it } from 'vitest';
import { formatSize } from './format.ts';

describe('formatSize', () => {
  it('names bytes, kilobytes, megabytes and gigabytes as written in Mexico', () => {
    expect(formatSize(812)).toBe('812 B');
    expect(formatSize(1536)).toBe('1.5 KB');
    expect(formatSize(5_223_703)).toBe('5 MB');
    expect(formatSize(3 * 1024 ** 3)).toBe('3 GB');
  });
});
