export const classroomAccessTypes = ['Acceso libre', 'Acceso controlado'] as const;
type ClassroomAccessType = (typeof classroomAccessTypes)[number];

export const classroomWarningKinds = ['DIEZ_DIAS', 'TRES_DIAS'] as const;
export type ClassroomWarningKind = (typeof classroomWarningKinds)[number];

const hourMs = 3_600_000;
const dayMs = 24 * hourMs;

/** Spec 3 §9: a member is warned once under 10 days and once more under 3 days before expiry. */
const warningThresholdsMs: Record<ClassroomWarningKind, number> = {
  DIEZ_DIAS: 10 * dayMs,
  TRES_DIAS: 3 * dayMs,
};

type ClassroomFacts = {
  isActive: boolean;
  accessType: ClassroomAccessType;
  adminUserId: string | null;
  expiresAt: Date | string;
};
type Viewer = { id: string; isAdmin: boolean; isMember: boolean } | null;

/** DESIGN.md: an active, unexpired aula opens to anyone signed in when libre, else to its list, its administrator and Admins. */
export function canEnterClassroom(viewer: Viewer, classroom: ClassroomFacts, now: Date = new Date()): boolean {
  if (!viewer) return false;
  if (!classroom.isActive || new Date(classroom.expiresAt).getTime() <= now.getTime()) return false;
  if (classroom.accessType === 'Acceso libre') return true;
  return viewer.isAdmin || viewer.isMember || classroom.adminUserId === viewer.id;
}

/** The warning thresholds the time left has crossed (none once expired). */
export function dueWarningKinds(expiresAt: Date | string, now: Date = new Date()): ClassroomWarningKind[] {
  const left = new Date(expiresAt).getTime() - now.getTime();
  if (left <= 0) return [];
  return classroomWarningKinds.filter((kind) => left < warningThresholdsMs[kind]);
}

/** Spec 3 §9: hours when under 3 days ('1 hora' under an hour), otherwise days, rounded up. */
export function timeLeftText(expiresAt: Date | string, now: Date = new Date()): string {
  const left = Math.max(0, new Date(expiresAt).getTime() - now.getTime());
  if (left < warningThresholdsMs.TRES_DIAS) {
    const hours = Math.max(1, Math.ceil(left / hourMs));
    return hours === 1 ? '1 hora' : `${hours} horas`;
  }
  const days = Math.ceil(left / dayMs);
  return days === 1 ? '1 día' : `${days} días`;
}

/** One line of an import: the address found in it, or why none was. */
export type ImportLine = { line: number; text: string; email: string | null };

const emailPattern = /^[^\s@,;"'<>]+@[^\s@,;"'<>]+\.[^\s@,;"'<>]+$/;

/** Spreadsheet cells of a line (CSV, semicolon or tab separated), without surrounding quotes. */
function cellsOf(line: string): string[] {
  return line
    .split(/[,;\t]/)
    .map((cell) =>
      cell
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .trim(),
    )
    .filter((cell) => cell !== '');
}

/** The first cell that looks like an e-mail address, lower-cased; null when the line has none. */
export function addressOfCells(cells: string[]): string | null {
  for (const cell of cells) {
    const candidate = cell
      .replace(/^mailto:/i, '')
      .replace(/^<(.*)>$/, '$1')
      .trim()
      .toLowerCase();
    if (emailPattern.test(candidate)) return candidate;
  }
  return null;
}

/** Pasted text or a CSV file, one address a line. */
export function importLinesFromText(text: string): ImportLine[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  // a trailing newline is not a blank line of its own
  if (lines.length > 1 && lines.at(-1) === '') lines.pop();
  return lines.map((raw, index) => {
    const cells = cellsOf(raw);
    return { line: index + 1, text: cells.join(', ').slice(0, 200), email: addressOfCells(cells) };
  });
}
