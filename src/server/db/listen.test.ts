import { describe, expect, it } from 'vitest';
import { createCatalogService } from '#server/features/catalog/catalog.service.ts';
import { createMediaService } from '#server/features/media/media.service.ts';
import type { Database } from './client.ts';

describe('LISTEN while the database is unreachable', () => {
  it('services that listen at start swallow the failure instead of crashing the process with an unhandled rejection', async () => {
    let attempts = 0;
    const listen: Database['listen'] = async () => {
      attempts += 1;
      throw new Error('Connection terminated');
    };
    // only the listen dependency is exercised at construction
    createCatalogService({ db: {} as never, classrooms: {} as never, analytics: {} as never, marks: {} as never, listen });
    createMediaService({ db: {} as never, classrooms: {} as never, diplomas: {} as never, viewing: {} as never, listen });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(attempts).toBe(2);
  });
});
