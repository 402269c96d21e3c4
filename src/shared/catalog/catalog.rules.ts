export const species = ['Perro', 'Gato', 'Otras especies'] as const;
export type Species = (typeof species)[number];

/** The membership a procedure needs in full: Gratis ones open to any account. */
export const procedureTypes = ['Gratis', 'Premium'] as const;
export type ProcedureType = (typeof procedureTypes)[number];

/** Parses a marker time 'h:mm:ss' (minutes 00-69, seconds 00-59, as the spec's mask allows). */
export function parseChapterTime(text: string): number | null {
  const match = /^(\d{1,2}):([0-6]\d):([0-5]\d)$/.exec(text.trim());
  if (!match) return null;
  const [, hours, minutes, seconds] = match;
  return Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds);
}

export function formatChapterTime(totalSeconds: number): string {
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  return `${hours}:${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
}

type Viewer = { isLoggedIn: boolean; hasPremiumAccess: boolean; hasClassroomAccess: boolean };

/** Spec 1 §4/§6: guests get demos only; any account gets Gratis procedures; Premium or an aula opens the rest. */
export function canWatchFullProcedure(viewer: Viewer, procedureType: ProcedureType): boolean {
  if (!viewer.isLoggedIn) return false;
  if (procedureType === 'Gratis') return true;
  return viewer.hasPremiumAccess || viewer.hasClassroomAccess;
}

/** The catalogue's URL filter kinds (/procedimientos/:type/:filter). */
export const catalogFilterKinds = ['kynd', 'tag', 'type', 'aula'] as const;
export type CatalogFilterKind = (typeof catalogFilterKinds)[number];
