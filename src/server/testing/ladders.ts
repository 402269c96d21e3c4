import { Readable } from 'node:stream';
import { videoRenditions } from '#server/db/schema/index.ts';
import { ladderPrefix } from '#server/features/renditions/renditions.service.ts';
import type { TestApp } from './test-app.ts';

export const testMasterPlaylist =
  '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-STREAM-INF:BANDWIDTH=400000,RESOLUTION=288x240\n240p/index.m3u8\n';
export const testVariantPlaylist =
  '#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4.0,\nseg_00000.ts\n#EXTINF:2.0,\nseg_00001.ts\n#EXT-X-ENDLIST\n';
/** Files of a ladder, relative to its folder, as players fetch them. */
export const testLadderFiles = ['master.m3u8', '240p/index.m3u8', '240p/seg_00000.ts'];

/** A ladder of one rendition written as the job writes it (the job itself is tested with ffmpeg in renditions.test.ts); its folder. */
export async function writeTestLadder(
  t: Pick<TestApp, 'db' | 'storage'>,
  sourceKey: string,
  options: { ready: boolean },
): Promise<string> {
  const [row] = await t.db
    .insert(videoRenditions)
    .values({
      sourceKey,
      status: options.ready ? 'ready' : 'processing',
      heights: [240],
      ...(options.ready ? { readyVersion: 'v1' } : { workingVersion: 'v1' }),
    })
    .returning();
  const prefix = ladderPrefix(row!.id, 'v1');
  await t.storage.put(`${prefix}/master.m3u8`, Readable.from([testMasterPlaylist]));
  await t.storage.put(`${prefix}/240p/index.m3u8`, Readable.from([testVariantPlaylist]));
  await t.storage.put(`${prefix}/240p/seg_00000.ts`, Readable.from([Buffer.alloc(188, 0x47)]));
  await t.storage.put(`${prefix}/poster.jpg`, Readable.from([Buffer.from([0xff, 0xd8, 0xff, 0xe0])]));
  return prefix;
}
