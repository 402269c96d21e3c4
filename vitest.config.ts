import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Files that replace modules or browser globals (vi.mock, vi.doMock with vi.resetModules, jsdom and the DOM
 * Testing Library's cleanup, which registers itself once per module load): each runs in a fresh module graph.
 */
const needsIsolation = ['src/web/**/*.test.ts', 'src/web/**/*.test.tsx', 'src/server/features/accounts/auth.test.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    // at least two files at once: much of a test file's time is spent waiting (PGlite start, PostgreSQL,
    // password hashing in another thread), and Vitest's default on two cores is one worker
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: process.env.CI ? ['default', 'junit'] : ['default'],
    outputFile: { junit: 'test-results/vitest-junit.xml' },
    projects: [
      {
        extends: true,
        test: { name: 'isolated', include: needsIsolation },
      },
      {
        extends: true,
        // the server's files share a worker's loaded modules: every file builds its own app on its own database,
        // and importing the server again for each of 150 files cost about a fifth of the run (decision 063)
        test: {
          name: 'shared',
          include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
          exclude: needsIsolation,
          isolate: false,
        },
      },
    ],
  },
});
