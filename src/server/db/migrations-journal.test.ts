import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationsFolder } from './migrations-folder.ts';

type Entry = { idx: number; when: number; tag: string };
const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
  entries: Entry[];
};

// 0007 and 0008 landed with earlier timestamps than 0006 (a merge); every database has them applied, so they stay
const landedOutOfOrder = new Set(['0007_procedures_search_text', '0008_procedures_search_text_triggers']);

describe('migration journal', () => {
  it('numbers every migration in order, one SQL file each', () => {
    const files = readdirSync(migrationsFolder)
      .filter((file) => file.endsWith('.sql'))
      .sort();
    expect(journal.entries.map((entry) => `${entry.tag}.sql`)).toEqual(files);
    journal.entries.forEach((entry, index) => {
      expect(entry.idx).toBe(index);
      expect(entry.tag.slice(0, 4)).toBe(String(index).padStart(4, '0'));
    });
  });

  it('gives each new migration a later timestamp than all before it, or the migrator would skip it on an existing database', () => {
    let latest = 0;
    for (const entry of journal.entries) {
      if (!landedOutOfOrder.has(entry.tag)) expect(entry.when, entry.tag).toBeGreaterThan(latest);
      latest = Math.max(latest, entry.when);
    }
  });
});
