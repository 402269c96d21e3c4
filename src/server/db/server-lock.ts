import pg from 'pg';

/** The advisory lock key every CxVet server holds shared on its PostgreSQL database ("CxVet" in ASCII). */
const serverLockKey = 0x4378566574;

/**
 * A running server holds pg_advisory_lock_shared(serverLockKey) on a connection of its own for its lifetime, so a
 * restore (which needs the lock exclusively) refuses to replace a database a server is using. A dropped connection
 * (a database restart) is reopened and the lock taken again.
 */
export async function holdServerLock(
  url: string,
  log: { warn(obj: object, msg: string): void } = { warn() {} },
): Promise<() => Promise<void>> {
  let client: pg.Client | undefined;
  let released = false;
  let retry: NodeJS.Timeout | undefined;

  async function take(): Promise<void> {
    const fresh = new pg.Client({ connectionString: url });
    fresh.on('error', () => {});
    fresh.on('end', () => {
      if (released || client !== fresh) return;
      client = undefined;
      log.warn({}, 'server lock connection ended: taking the lock again');
      scheduleRetry();
    });
    await fresh.connect();
    const { rows } = await fresh.query<{ held: boolean }>('select pg_try_advisory_lock_shared($1) as held', [
      serverLockKey,
    ]);
    if (!rows[0]!.held) {
      await fresh.end();
      throw new Error('una restauración de la base de datos está en curso: espera a que termine y vuelve a iniciar.');
    }
    client = fresh;
  }

  function scheduleRetry() {
    retry = setTimeout(() => {
      if (released) return;
      take().catch((error: unknown) => {
        log.warn({ err: error }, 'server lock not taken again yet');
        scheduleRetry();
      });
    }, 1000);
    retry.unref();
  }

  await take();
  return async () => {
    released = true;
    clearTimeout(retry);
    const held = client;
    client = undefined;
    await held?.end().catch(() => {});
  };
}

/**
 * Takes the server lock exclusively for a restore, or refuses while any server holds it. Returns the release.
 */
export async function lockOutServers(url: string): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  const { rows } = await client.query<{ held: boolean }>('select pg_try_advisory_lock($1) as held', [serverLockKey]);
  if (!rows[0]!.held) {
    await client.end();
    throw new Error(
      'un servidor de CxVet está usando esta base de datos: detén todos los servidores (npm start) que usan ' +
        'DATABASE_URL y vuelve a ejecutar la restauración.',
    );
  }
  return async () => {
    await client.end().catch(() => {});
  };
}
