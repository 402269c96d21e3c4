/**
 * Runs an operator command (backup, restore, migrate, seed): any failure is one line naming what went wrong, never a
 * stack trace; the exit code is 1.
 */
export async function runCommand(failure: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ');
    console.error(`\n${failure}: ${message}\n`);
    process.exit(1);
  }
}
