import { fileURLToPath } from 'node:url';

/** Folder of the SQL migrations that `migrate()` applies. */
export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
