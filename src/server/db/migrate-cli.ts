// `npm run db:migrate`: apply pending migrations without starting the server.
import { loadConfig } from '#server/config.ts';
import { openConfiguredDatabase } from './open-from-config.ts';

const { database, release } = await openConfiguredDatabase(loadConfig());
await database.close();
release();
console.log(`Migraciones aplicadas (${database.kind}).`);
