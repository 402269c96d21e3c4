import path from 'node:path';
import { loadConfig, type Config } from './config.ts';
import type { Database } from './db/client.ts';
import { openConfiguredDatabase } from './db/open-from-config.ts';
import { buildApp } from './app.ts';
import { createConfiguredStorage } from './services/storage-from-config.ts';
import { createMailer } from './services/mail.ts';
import { seedDemo } from './db/seed/demo.ts';
import { demoAccounts } from './db/seed/demo-accounts.ts';
import { assertNoDemoPasswords } from './db/seed/demo-guard.ts';
import { privacyJobKinds } from './features/privacy/privacy.service.ts';

function fail(error: unknown): never {
  console.error(`\nNo se pudo iniciar CxVet: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

let config: Config;
let database: Database;
let releaseLock: () => void;
try {
  config = loadConfig();
  ({ database, release: releaseLock } = await openConfiguredDatabase(config));
} catch (error) {
  fail(error);
}
const storage = await createConfiguredStorage(config);
const log = { info: (obj: object, msg: string) => app.log.info(obj, msg) };
const mailer = createMailer({ db: database.db, smtpUrl: config.smtpUrl, from: config.mailFrom, log });
const app = await buildApp({ config, database, storage, mailer });

const seeded = config.seedDemo
  ? await seedDemo({
      database,
      storage,
      accounts: app.services.accounts,
      queueLadders: (keys) => app.services.renditions.queueFor(keys),
    })
  : false;
if (config.admin) {
  const outcome = await app.services.accounts.ensureAdmin(config.admin, app.services.membership.promoteToAdmin);
  app.log.info({ outcome }, 'admin account ensured (ADMIN_EMAIL)');
}
if (config.production) {
  await assertNoDemoPasswords(app.services.accounts).catch(async (error: unknown) => {
    await app.close();
    await database.close();
    releaseLock();
    fail(error);
  });
}

// in-flight requests (an upload) get this long to finish after SIGTERM; then the process ends anyway
const shutdownGraceMs = 25_000;
let closing = false;
/**
 * Graceful shutdown: /api/ready answers 503 and new requests get 503 (the proxy sends them elsewhere), open
 * event streams end with a short retry (browsers reconnect to another instance), in-flight requests finish,
 * the job runner stops after its current job (an unfinished claim is taken up by another instance), then
 * the database closes.
 */
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const forced = setTimeout(() => {
    app.log.warn({ graceMs: shutdownGraceMs }, 'requests still open after the grace period: stopping anyway');
    releaseLock();
    process.exit(1);
  }, shutdownGraceMs);
  forced.unref();
  await app.close();
  await database.close();
  storage.close?.();
  releaseLock();
  clearTimeout(forced);
  app.log.info('shut down cleanly');
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));

// Fastify logs one line per interface it listens on; the banner below names the one address to open (PUBLIC_URL)
const logLevel = app.log.level;
app.log.level = 'warn';
await app.listen({ port: config.port, host: config.host }).catch(async (error: unknown) => {
  await database.close();
  releaseLock();
  fail(error);
});
app.log.level = logLevel;
// deletions are checked against the ledger beside the backups at every start (a restored backup brings none back)
await app.services.jobs.schedule(privacyJobKinds.reconcile, { uniqueKey: privacyJobKinds.reconcile });
// scheduled membership changes; app.close() stops the runner
await app.services.jobs.start();
await app.services.videoJobs.start();
const lines = [
  '',
  `CxVet está en ${config.publicUrl}`,
  `Base de datos: ${database.kind === 'pglite' ? `PGlite en ${path.join(config.dataDir, 'db')}` : 'PostgreSQL'}`,
];
if (config.paymentsProvider === 'simulado') {
  lines.push('Modo de pruebas: los pagos son simulados (PAYMENTS_PROVIDER=simulado); nadie paga dinero real.');
}
if (seeded || config.seedDemo) {
  lines.push('Cuentas de demostración (contraseña de todas: Demo1234):');
  for (const account of demoAccounts) lines.push(`  ${account.type.padEnd(8)} ${account.email}`);
}
console.log(lines.join('\n') + '\n');
