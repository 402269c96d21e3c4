import { defineConfig } from 'vitest/config';

// `npm run test:attack`: every route as every role with broken bodies; apart from `npm test`, which it would slow down
export default defineConfig({
  test: {
    include: ['src/**/*.attack.ts'],
    environment: 'node',
    testTimeout: 900_000,
    hookTimeout: 120_000,
  },
});
