// past this share of its length there is nothing worth resuming
const nearEndShare = 0.9;

/** How often the player saves the position while the video plays. */
export const saveEverySeconds = 10;

// a resume offer for the first seconds would only get in the way
const minimumResumeSeconds = 5;

/** A position this close to the end offers no resume; whether the video was watched is watched time's rule. */
export function isNearEnd(positionSeconds: number, durationSeconds: number): boolean {
  return durationSeconds > 0 && positionSeconds >= nearEndShare * durationSeconds;
}

/** Where 'Continuar desde' takes the member, or null when there is nothing worth resuming. */
export function resumePoint(position: { positionSeconds: number; durationSeconds: number } | null): number | null {
  if (!position) return null;
  if (position.positionSeconds < minimumResumeSeconds) return null;
  if (isNearEnd(position.positionSeconds, position.durationSeconds)) return null;
  return position.positionSeconds;
}

/** A video time as people read it: 0:30, 12:34, 1:02:03. */
export function formatClock(totalSeconds: number): string {
  const whole = Math.max(0, Math.floor(totalSeconds));
  const hours = Math.floor(whole / 3600);
  const minutes = Math.floor((whole % 3600) / 60);
  const seconds = String(whole % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

export const resumeLabel = (seconds: number) => `Continuar desde ${formatClock(seconds)}`;

/** The share watched, 0 to 100, for the progress bars of 'Seguir viendo'. */
export function watchedPercent(positionSeconds: number, durationSeconds: number): number {
  if (durationSeconds <= 0) return 0;
  return Math.min(100, Math.max(0, Math.round((positionSeconds / durationSeconds) * 100)));
}
