/** Spec 3 §9: an exam is passed at this percentage unless the diploma says otherwise. */
const defaultPassThresholdPercent = 80;

/** Spec 3 §3: a question nobody answered yet. */
export const unanswered = -1;

/** Two decimals, rounded half up, without floating-point drift (2/3 → 66.67). */
function roundToHundredths(value: number): number {
  return Math.round((value + Number.EPSILON) * 100) / 100;
}

/** Spec 3 §9: correct answers over questions, as a percentage with two decimals. */
export function examScorePercent(correct: number, questions: number): number {
  if (questions <= 0) return 0;
  return roundToHundredths((correct * 100) / questions);
}

/** Passed when the score is at least the threshold (79.99 fails, 80.00 passes at 80). */
export function isPassingScore(scorePercent: number, thresholdPercent: number = defaultPassThresholdPercent): boolean {
  return roundToHundredths(scorePercent) >= thresholdPercent;
}

/** Share of done over total as a percentage with two decimals; nothing to do is 0. */
export function progressPercent(done: number, total: number): number {
  if (total <= 0) return 0;
  return roundToHundredths((Math.min(done, total) * 100) / total);
}

/** What the page prints: '66.67%', and 'Completado' at 100. */
export function formatProgress(percent: number): string {
  return percent >= 100 ? 'Completado' : `${percent.toFixed(2)}%`;
}

/** Spec 3 §9: folio of three digits, zero-padded (7 → '007'; 1000 stays '1000'). */
export function formatFolio(folio: number): string {
  return String(folio).padStart(3, '0');
}

export type DiplomaKindFlag = { isExternal: boolean };

export type SequenceVideo = { id: string; position: number; isActive: boolean; completed: boolean };
export type SequenceExam = {
  id: string;
  afterVideoPosition: number | null;
  isActive: boolean;
  completed: boolean;
  passed: boolean;
};

export type SequenceItem =
  | { type: 'video'; id: string; isActive: boolean; completed: boolean; enabled: boolean }
  | { type: 'exam'; id: string; isActive: boolean; completed: boolean; passed: boolean; enabled: boolean };

/**
 * Spec 3 §4: videos in order, each exam right after the video whose position it names (unassigned
 * exams are left out). CxVet: an item is enabled when active. External: only active items are shown,
 * and one is enabled only when the one before it is completed.
 */
export function buildSequence(
  diploma: DiplomaKindFlag,
  videos: SequenceVideo[],
  exams: SequenceExam[],
): SequenceItem[] {
  type Unlocked = SequenceItem extends infer Item ? (Item extends SequenceItem ? Omit<Item, 'enabled'> : never) : never;
  const ordered: Unlocked[] = [];
  for (const video of [...videos].sort((a, b) => a.position - b.position)) {
    ordered.push({ type: 'video', id: video.id, isActive: video.isActive, completed: video.completed });
    for (const exam of exams.filter((each) => each.afterVideoPosition === video.position)) {
      ordered.push({
        type: 'exam',
        id: exam.id,
        isActive: exam.isActive,
        completed: exam.completed,
        passed: exam.passed,
      });
    }
  }
  if (!diploma.isExternal) return ordered.map((item) => ({ ...item, enabled: item.isActive }) as SequenceItem);
  const shown = ordered.filter((item) => item.isActive);
  return shown.map((item, index) => ({ ...item, enabled: index === 0 || shown[index - 1]!.completed }) as SequenceItem);
}

/**
 * Progress of one member. CxVet: the share of its active exams passed (spec 3 §4). External: the
 * share of its shown items completed, two decimals (spec 3 §2).
 */
export function diplomaProgressPercent(diploma: DiplomaKindFlag, items: SequenceItem[]): number {
  if (diploma.isExternal) {
    const shown = items.filter((item) => item.isActive);
    return progressPercent(shown.filter((item) => item.completed).length, shown.length);
  }
  const exams = items.filter(
    (item): item is Extract<SequenceItem, { type: 'exam' }> => item.type === 'exam' && item.isActive,
  );
  return progressPercent(exams.filter((exam) => exam.passed).length, exams.length);
}

export const examStatuses = ['notStarted', 'inProgress', 'passed', 'failed'] as const;
export type ExamStatus = (typeof examStatuses)[number];

/** Spec 3 §4: not started, in progress (some answers saved), then passed or failed once completed. */
export function examStatus(input: { answered: number; completed: boolean; passed: boolean }): ExamStatus {
  if (input.completed) return input.passed ? 'passed' : 'failed';
  return input.answered > 0 ? 'inProgress' : 'notStarted';
}
