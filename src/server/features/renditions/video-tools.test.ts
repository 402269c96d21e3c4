import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { findVideoTools } from './video-tools.ts';

let root: string;
let system: string;
let other: string;
let empty: string;

async function program(folder: string, name: string, mode = 0o755) {
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, name), '#!/bin/sh\n');
  await chmod(path.join(folder, name), mode);
}

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'cxvet-video-tools-'));
  system = path.join(root, 'usr-bin');
  other = path.join(root, 'local-bin');
  empty = path.join(root, 'empty');
  await mkdir(empty);
  await program(system, 'ffmpeg');
  await program(system, 'ffprobe');
  await program(other, 'ffprobe');
  await program(other, 'ffmpeg', 0o644);
});
afterAll(async () => rm(root, { recursive: true, force: true }));

describe('where the ladder job finds ffmpeg and ffprobe', () => {
  it('takes the programs on PATH, the first executable one of each', () => {
    const searchPath = [empty, 'relative/bin', other, system].join(path.delimiter);
    expect(findVideoTools({ searchPath })).toEqual({
      ffmpeg: path.join(system, 'ffmpeg'),
      ffprobe: path.join(other, 'ffprobe'),
    });
  });

  it('finds none on a machine without them, and the job then says ffmpeg is missing', () => {
    expect(findVideoTools({ searchPath: empty })).toEqual({ ffmpeg: undefined, ffprobe: undefined });
    expect(findVideoTools({ searchPath: '' })).toEqual({ ffmpeg: undefined, ffprobe: undefined });
  });

  it('puts FFMPEG_PATH first, with the ffprobe beside it, even where it does not exist', () => {
    expect(findVideoTools({ ffmpegPath: '/opt/ffmpeg/bin/ffmpeg', searchPath: system })).toEqual({
      ffmpeg: '/opt/ffmpeg/bin/ffmpeg',
      ffprobe: '/opt/ffmpeg/bin/ffprobe',
    });
  });

  it('puts FFPROBE_PATH first, alone or with FFMPEG_PATH', () => {
    expect(findVideoTools({ ffprobePath: '/opt/probe', searchPath: system })).toEqual({
      ffmpeg: path.join(system, 'ffmpeg'),
      ffprobe: '/opt/probe',
    });
    expect(findVideoTools({ ffmpegPath: '/opt/ffmpeg', ffprobePath: '/opt/probe', searchPath: system })).toEqual({
      ffmpeg: '/opt/ffmpeg',
      ffprobe: '/opt/probe',
    });
  });

  it("reads this process's PATH when no folders are given", () => {
    const saved = process.env.PATH;
    process.env.PATH = other;
    try {
      expect(findVideoTools()).toEqual({ ffmpeg: undefined, ffprobe: path.join(other, 'ffprobe') });
    } finally {
      process.env.PATH = saved;
    }
  });
});
