import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brokenLinks, headingAnchor } from '../scripts/check-links.ts';

const repository = path.resolve(import.meta.dirname, '..');
let fixture: string;

beforeAll(async () => {
  fixture = await mkdtemp(path.join(tmpdir(), 'cxvet-links-'));
  await mkdir(path.join(fixture, 'docs', 'decisions'), { recursive: true });
  await writeFile(
    path.join(fixture, 'README.md'),
    [
      '# CxVet',
      '[ops](docs/operations.md#backups) [gone](docs/missing.md) [bad anchor](docs/operations.md#nowhere)',
      '[site](https://example.com) [here](#cxvet) `[code](docs/not-checked.md)`',
      '```',
      '[fenced](docs/not-checked-either.md)',
      '```',
    ].join('\n'),
  );
  await writeFile(path.join(fixture, 'docs', 'operations.md'), '# Operations\n\n## Backups\n');
  await writeFile(path.join(fixture, 'docs', 'decisions', 'README.md'), '- [001](001-x.md)\n[up](../operations.md)\n');
});
afterAll(async () => rm(fixture, { recursive: true, force: true }));

describe('the link check of README.md and docs/', () => {
  it('finds every relative link of README.md and docs/ resolving, anchors included', () => {
    expect(brokenLinks(repository)).toEqual([]);
  });

  it('names a missing file and a missing heading, and leaves web links and code alone', () => {
    expect(brokenLinks(fixture)).toEqual([
      'README.md: docs/missing.md (no such file)',
      'README.md: docs/operations.md#nowhere (no such heading)',
      'docs/decisions/README.md: 001-x.md (no such file)',
    ]);
  });

  it("makes a heading's anchor as GitHub does", () => {
    expect(headingAnchor("Members' data rights (ARCO)")).toBe('members-data-rights-arco');
    expect(headingAnchor('Production: several instances, PostgreSQL and a bucket')).toBe(
      'production-several-instances-postgresql-and-a-bucket',
    );
    expect(headingAnchor('Data-saver video (HLS renditions)')).toBe('data-saver-video-hls-renditions');
  });
});
