import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { readdir } from 'node:fs/promises';
import { openDatabase } from './client.ts';
import { migrationsFolder } from './migrations-folder.ts';

const serverUrl = process.env.TEST_DATABASE_URL;

// several instances started together on a fresh PostgreSQL database (PGlite has one process by design)
describe.skipIf(!serverUrl)('migrations from several instances at once', () => {
  it('are applied once while the instances wait for each other', { timeout: 120_000 }, async () => {
    const name = `cxvet_test_${randomUUID().replaceAll('-', '')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(serverUrl!);
    url.pathname = `/${name}`;
    const instances = await Promise.all([1, 2, 3].map(() => openDatabase({ url: url.toString() })));
    try {
      await Promise.all(instances.map((database) => database.migrate()));
      const applied = await instances[0]!.db.execute<{ count: string }>(
        sql`select count(*) from drizzle.__drizzle_migrations`,
      );
      const rows = (Array.isArray(applied) ? applied : (applied as { rows: { count: string }[] }).rows) as {
        count: string;
      }[];
      const files = (await readdir(migrationsFolder)).filter((file) => file.endsWith('.sql'));
      expect(Number(rows[0]!.count)).toBe(files.length);
    } finally {
      for (const database of instances) await database.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
