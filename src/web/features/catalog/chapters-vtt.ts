import { formatChapterTime } from '#shared/catalog/catalog.rules.ts';

type Chapter = { name: string; timeSeconds: number };

const vttTime = (seconds: number) => {
  const whole = Math.max(0, Math.floor(seconds));
  const [hours, minutes, secs] = formatChapterTime(whole).split(':');
  return `${hours!.padStart(2, '0')}:${minutes}:${secs}.000`;
};

const escapeCueText = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\s+/g, ' ').trim();

/** A WebVTT chapters track: each chapter runs until the next one, the last one until the end of the video. */
export function buildChaptersVtt(chapters: Chapter[], durationSeconds: number): string {
  const sorted = [...chapters].sort((a, b) => a.timeSeconds - b.timeSeconds);
  const cues = sorted.map((chapter, index) => {
    const next = sorted[index + 1];
    const end = Math.max(next ? next.timeSeconds : durationSeconds, chapter.timeSeconds + 1);
    return `${index + 1}\n${vttTime(chapter.timeSeconds)} --> ${vttTime(end)}\n${escapeCueText(chapter.name)}`;
  });
  return ['WEBVTT', ...cues].join('\n\n') + '\n';
}
