import type { ExamStatus } from '../diplomas/diplomas.rules.ts';
import type { ProgressFilter } from './progress.schemas.ts';

export const progressFilterText: Record<ProgressFilter, string> = {
  notStarted: 'Sin actividad',
  inProgress: 'En progreso',
  finished: 'Terminado',
};

export const examStatusText: Record<ExamStatus, string> = {
  notStarted: 'Sin iniciar',
  inProgress: 'En progreso',
  passed: 'Aprobado',
  failed: 'No aprobado',
};

/** A file name's part from a record's title: letters, digits and dashes, accents dropped. */
export function fileNamePart(title: string, fallback: string): string {
  return (
    title
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 60) || fallback
  );
}
