import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  scripts: Record<string, string>;
};

describe('npm start', () => {
  it('runs scripts/start.mjs with glibc capped at two malloc arenas (idle and report memory)', () => {
    // the bench reads these same variables from the script (bench/run.ts), so it measures what npm start runs
    expect(packageJson.scripts.start).toBe('MALLOC_ARENA_MAX=2 node scripts/start.mjs');
  });
});
