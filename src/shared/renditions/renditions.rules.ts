/** Where a video's HLS ladder stands: 'pending' queued, 'processing' being transcoded, 'failed' see the error. */
export const renditionStatuses = ['pending', 'processing', 'ready', 'failed'] as const;
export type RenditionStatus = (typeof renditionStatuses)[number];

/** The ladder's heights; a source is never upscaled, so a smaller source gets only those at or below its height. */
const ladderHeights = [240, 360, 720] as const;

/** The heights to make for a source of this height: every ladder step up to it, and at least the lowest. */
export function heightsFor(sourceHeight: number): number[] {
  const fitting = ladderHeights.filter((height) => height <= sourceHeight);
  return fitting.length > 0 ? [...fitting] : [ladderHeights[0]];
}

/** Keyframe times: every segment boundary plus each chapter start, so a chapter jump lands on a segment start. */
export function keyframeTimes(durationSeconds: number, chapterSeconds: number[], segmentSeconds: number): number[] {
  const times = new Set<number>();
  for (let t = 0; t < durationSeconds; t += segmentSeconds) times.add(Math.round(t * 1000) / 1000);
  for (const chapter of chapterSeconds) if (chapter >= 0 && chapter < durationSeconds) times.add(chapter);
  return [...times].sort((a, b) => a - b);
}

/** What the console shows when a ladder could not be made. */
export const renditionErrors = {
  noFfmpeg:
    'No se pudieron preparar las versiones: ffmpeg no está instalado en el servidor. El video se sigue mostrando en su formato original.',
  missingSource: 'No se pudieron preparar las versiones: el archivo de video ya no existe.',
  unreadable:
    'No se pudieron preparar las versiones: el video está dañado o su formato no es compatible. El video se sigue mostrando en su formato original.',
  unexpected: 'No se pudieron preparar las versiones por un error inesperado. Intenta de nuevo.',
} as const;
