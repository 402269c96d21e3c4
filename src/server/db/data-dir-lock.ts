import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

/** Two processes on one PGlite folder silently lose writes, so one process owns DATA_DIR at a time. */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = path.join(dataDir, 'cxvet.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        rmSync(lockFile, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(lockFile, 'utf8'));
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new Error(
          `La carpeta de datos ${dataDir} ya está en uso por el proceso ${owner}. ` +
            'Detén ese proceso o usa otra carpeta con DATA_DIR.',
        );
      }
      // the owner died without releasing: take the lock over
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`No se pudo bloquear la carpeta de datos ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
