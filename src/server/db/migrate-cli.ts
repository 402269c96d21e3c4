// `npm run db:migrate`: apply pending migrations without starting the server.
import { loadCommandConfig } from '#server/config.ts';
import { runCommand } from '#server/command.ts';
import { openConfiguredDatabase } from './open-from-config.ts';

await runCommand('No se pudieron aplicar las migraciones', async () => {
  const { database, release } = await openConfiguredDatabase(loadCommandConfig());
  await database.close();
  release();
  console.log(`Migraciones aplicadas (${database.kind}).`);
});
