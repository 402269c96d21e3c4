import path from 'node:path';
import { listenAddressOf, loadConfig, type Config } from './config.ts';
import { assertPortFree } from './port-check.ts';
import type { Database } from './db/client.ts';
import { openConfiguredDatabase } from './db/open-from-config.ts';
import { holdServerLock } from './db/server-lock.ts';
import { buildApp } from './app.ts';
import { createConfiguredStorage } from './services/storage-from-config.ts';
import { createMailer } from './services/mail.ts';
import { seedDemo } from './db/seed/demo.ts';
import { demoAccounts } from './db/seed/demo-accounts.ts';
import { assertNoDemoPasswords } from './db/seed/demo-guard.ts';

function fail(error: unknown): never {
  console.error(`\nNo se pudo iniciar CxVet: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}

let config: Config;
let database: Database;
let releaseLock: () => void;
try {
  const address = listenAddressOf();
  if (address) await assertPortFree(address);
  config = loadConfig();
  ({ database, release: releaseLock } = await openConfiguredDatabase(config));
  if (config.databaseUrl) {
    const releaseDataDir = releaseLock;
    const releaseServerLock = await holdServerLock(config.databaseUrl, {
      warn: (obj, msg) => console.warn(msg, obj),
    }).catch(async (error: unknown) => {
      await database.close();
      releaseDataDir();
      throw error;
    });
    releaseLock = () => {
      void releaseServerLock();
      releaseDataDir();
    };
  }
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
// the shared deletion ledger is applied before the first request: a restored backup brings no deleted account back
await app.services.privacy.reconcileDeletions().catch(async (error: unknown) => {
  await app.close();
  await database.close();
  releaseLock();
  fail(
    new Error(
      `no se pudo leer el registro de cuentas eliminadas: ${error instanceof Error ? error.message : String(error)}`,
    ),
  );
});
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
 * Graceful shutdown: first the drain (SHUTDOWN_DRAIN_SECONDS), when /api/ready answers 503 and requests are still
 * served, so a load balancer polling readiness stops sending new ones; then new requests get 503, open event streams
 * end with a short retry (browsers reconnect to another instance), in-flight requests finish, the job runners finish
 * their current short job and put a video conversion back in the queue, then the database closes.
 */
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const drainMs = config.shutdownDrainMs ?? 0;
  if (drainMs > 0) {
    app.startDraining();
    app.log.info({ drainMs }, 'draining: readiness answers 503, requests are still served');
    await new Promise((resolve) => setTimeout(resolve, drainMs));
  }
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
