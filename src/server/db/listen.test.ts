import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createCatalogService } from '#server/features/catalog/catalog.service.ts';
import { createMediaService } from '#server/features/media/media.service.ts';
import type { Database } from './client.ts';
import { anyChange } from './channels.ts';

describe('LISTEN while the database is unreachable', () => {
  it('services that listen at start swallow the failure instead of crashing the process with an unhandled rejection', async () => {
    let attempts = 0;
    const listen: Database['listen'] = async () => {
      attempts += 1;
      throw new Error('Connection terminated');
    };
    // only the listen dependency is exercised at construction
    createCatalogService({
      db: {} as never,
      classrooms: {} as never,
      analytics: {} as never,
      marks: {} as never,
      listen,
    });
    createMediaService({
      db: {} as never,
      classrooms: {} as never,
      diplomas: {} as never,
      viewing: {} as never,
      listen,
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(attempts).toBe(2);
  });
});

describe.runIf(process.env.TEST_DATABASE_URL)('LISTEN on PostgreSQL after the connection drops', () => {
  it('subscribes several channels at once one statement at a time, so pg warns of no overlapping query', async () => {
    const { createTestDatabase } = await import('#server/testing/test-app.ts');
    const database = await createTestDatabase();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.message);
    process.on('warning', onWarning);
    try {
      const received: string[] = [];
      const channels = ['listen_together_a', 'listen_together_b', 'listen_together_c', 'listen_together_d'];
      await Promise.all(
        channels.map((channel) => database.listen(channel, (payload) => received.push(`${channel}:${payload}`))),
      );
      for (const channel of channels) await database.notify(channel, 'hola');
      await expect.poll(() => received.length).toBe(channels.length);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((message) => message.includes('already executing a query'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await database.close();
    }
  });

  it('reconnects and listens again, so notifications sent after the drop still arrive, and says what may have been missed', async () => {
    const { createTestDatabase } = await import('#server/testing/test-app.ts');
    const database = await createTestDatabase();
    try {
      const received: string[] = [];
      await database.listen('listen_reconnect_test', (payload) => received.push(payload));
      await database.notify('listen_reconnect_test', 'before');
      await expect.poll(() => received).toEqual(['before']);
      // the server ends the listening connection (a restart or a failover does the same)
      const name = new URL(database.url!).pathname.slice(1);
      await database.db.execute(
        sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = ${name} and query like 'listen %' and pid <> pg_backend_pid()`,
      );
      await expect
        .poll(
          async () => {
            await database.notify('listen_reconnect_test', 'after');
            return received.includes('after');
          },
          { timeout: 10_000, interval: 300 },
        )
        .toBe(true);
      // subscribers that remember state drop it: once when the connection went, once when it listened again
      expect(received.filter((payload) => payload === anyChange).length).toBeGreaterThanOrEqual(2);
      expect(received.indexOf(anyChange)).toBeLessThan(received.indexOf('after'));
    } finally {
      await database.close();
      await database.drop();
    }
  });
});
