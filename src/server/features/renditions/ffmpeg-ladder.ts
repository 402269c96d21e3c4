import { spawn, type ChildProcess } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { renditionErrors } from '#shared/renditions/renditions.rules.ts';

/** Seconds per HLS segment: short enough to start fast on a slow link, long enough to keep playlists small. */
export const segmentSeconds = 4;
/** Video bitrate (kbit/s) per height; audio is 64 kbit/s AAC on every rendition. */
const videoKbps: Record<number, number> = { 240: 300, 360: 600, 720: 2000 };
const audioKbps = 64;

/** A transcoding failure whose Spanish message the Admin reads. */
export class RenditionFailure extends Error {}

export function run(command: string, args: string[], children: Set<ChildProcess>, onStdout?: (text: string) => void) {
  return new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    children.add(child);
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const lines = stdout.split('\n');
      stdout = lines.pop() ?? '';
      if (onStdout) for (const line of lines) onStdout(line);
    });
    // keep the tail only: ffmpeg is chatty on long videos
    child.stderr.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.on('error', (error) => {
      children.delete(child);
      reject(error);
    });
    child.on('close', (code) => {
      children.delete(child);
      resolve({ code, stderr });
    });
  });
}

export async function listFiles(root: string, relative = ''): Promise<string[]> {
  const entries = await readdir(path.join(root, relative), { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      return entry.isDirectory() ? listFiles(root, child) : Promise.resolve([child]);
    }),
  );
  return nested.flat();
}

/** The video's height and duration, and whether it has sound, read by ffprobe. */
export async function probe(ffprobePath: string, file: string) {
  const result = await new Promise<string>((resolve, reject) => {
    const child = spawn(ffprobePath, ['-v', 'error', '-print_format', 'json', '-show_streams', '-show_format', file], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => void (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new RenditionFailure(renditionErrors.unreadable))));
  });
  const info = JSON.parse(result) as {
    streams?: { codec_type?: string; height?: number }[];
    format?: { duration?: string };
  };
  const video = info.streams?.find((stream) => stream.codec_type === 'video');
  const duration = Number(info.format?.duration);
  if (!video?.height || !Number.isFinite(duration) || duration <= 0)
    throw new RenditionFailure(renditionErrors.unreadable);
  return {
    height: video.height,
    duration,
    hasAudio: Boolean(info.streams?.some((stream) => stream.codec_type === 'audio')),
  };
}

/** The ffmpeg arguments of the whole ladder in one pass: one decode, one scaled copy per height. */
export function ladderArgs(
  input: string,
  out: string,
  heights: number[],
  hasAudio: boolean,
  keyframes: number[],
): string[] {
  const split = `[0:v]split=${heights.length}${heights.map((_, index) => `[s${index}]`).join('')}`;
  const scales = heights.map((height, index) => `[s${index}]scale=-2:${height}[v${index}]`);
  const args = ['-hide_banner', '-nostdin', '-y', '-i', input, '-filter_complex', [split, ...scales].join(';')];
  heights.forEach((height, index) => {
    args.push('-map', `[v${index}]`);
    if (hasAudio) args.push('-map', '0:a:0');
    const kbps = videoKbps[height]!;
    args.push(
      `-b:v:${index}`,
      `${kbps}k`,
      `-maxrate:v:${index}`,
      `${Math.round(kbps * 1.2)}k`,
      `-bufsize:v:${index}`,
      `${kbps * 2}k`,
    );
  });
  args.push(
    '-c:v',
    'libx264',
    '-preset',
    'veryfast',
    '-profile:v',
    'main',
    '-pix_fmt',
    'yuv420p',
    '-sc_threshold',
    '0',
  );
  // segments cut at keyframes: forcing one at each chapter start makes every chapter begin a segment
  args.push('-force_key_frames', keyframes.join(','));
  if (hasAudio) args.push('-c:a', 'aac', '-b:a', `${audioKbps}k`, '-ac', '2');
  const streamMap = heights
    .map((height, index) => (hasAudio ? `v:${index},a:${index},name:${height}p` : `v:${index},name:${height}p`))
    .join(' ');
  args.push(
    '-f',
    'hls',
    '-hls_time',
    String(segmentSeconds),
    '-hls_playlist_type',
    'vod',
    '-hls_flags',
    'independent_segments',
    '-hls_segment_type',
    'mpegts',
    '-hls_segment_filename',
    path.join(out, '%v', 'seg_%05d.ts'),
    '-master_pl_name',
    'master.m3u8',
    '-var_stream_map',
    streamMap,
    '-progress',
    'pipe:1',
    '-nostats',
    path.join(out, '%v', 'index.m3u8'),
  );
  return args;
}
