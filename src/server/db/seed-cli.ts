// `npm run db:seed`: demo content on an empty database, without starting the server.
import { loadCommandConfig } from '#server/config.ts';
import { runCommand } from '#server/command.ts';
import { buildApp } from '#server/app.ts';
import { createConfiguredStorage } from '#server/services/storage-from-config.ts';
import { createMailer } from '#server/services/mail.ts';
import { openConfiguredDatabase } from './open-from-config.ts';
import { seedDemo } from './seed/demo.ts';

await runCommand('No se pudo crear el contenido de demostración', async () => {
  const config = loadCommandConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const { database, release } = await openConfiguredDatabase(config);
  try {
    const storage = await createConfiguredStorage(config);
    const mailer = createMailer({ db: database.db, from: config.mailFrom, log: { info() {} } });
    const app = await buildApp({ config, database, storage, mailer, distDir: null });
    const seeded = await seedDemo({ database, storage, accounts: app.services.accounts });
    await app.close();
    console.log(
      seeded ? 'Contenido de demostración creado.' : 'La base de datos ya tenía contenido: no se cambió nada.',
    );
  } finally {
    await database.close();
    release();
  }
});
