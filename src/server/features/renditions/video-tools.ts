import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** The two programs the ladder job runs; either may be missing (then videos play as uploaded). */
export type VideoTools = { ffmpeg?: string; ffprobe?: string };

type Lookup = {
  /** FFMPEG_PATH: used as given, even when it does not exist (an operator may turn ladders off with it). */
  ffmpegPath?: string;
  /** FFPROBE_PATH; unset with FFMPEG_PATH set, ffprobe is looked for beside that ffmpeg. */
  ffprobePath?: string;
  /** The folders the system's programs are looked for in, as in PATH (unset: this process's PATH). */
  searchPath?: string;
};

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onSearchPath(name: string, searchPath: string): string | undefined {
  return searchPath
    .split(path.delimiter)
    .filter((folder) => path.isAbsolute(folder))
    .map((folder) => path.join(folder, name))
    .find(executable);
}

/**
 * ffmpeg and ffprobe for the ladders: each from its setting, else the program on PATH. The npm packages' static
 * ffmpeg (4.1, 2018) crashes on the ladder's multi-variant HLS output, so none is bundled (decision 024).
 */
export function findVideoTools(lookup: Lookup = {}): VideoTools {
  const searchPath = lookup.searchPath ?? process.env.PATH ?? '';
  const ffmpeg = lookup.ffmpegPath ?? onSearchPath('ffmpeg', searchPath);
  const ffprobe =
    lookup.ffprobePath ??
    (lookup.ffmpegPath ? path.join(path.dirname(lookup.ffmpegPath), 'ffprobe') : undefined) ??
    onSearchPath('ffprobe', searchPath);
  return { ffmpeg, ffprobe };
}
