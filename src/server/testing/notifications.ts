import { randomUUID } from 'node:crypto';
import type { Database } from '#server/db/client.ts';

/**
 * Subscribes now (before the write) and returns a wait that resolves once `database` delivered a notification on
 * `channel` with this payload to this process's listeners.
 */
export async function willHear(database: Database, channel: string, payload: string): Promise<() => Promise<void>> {
  let done!: () => void;
  const delivered = new Promise<void>((resolve) => (done = resolve));
  const stop = await database.listen(channel, (heard) => {
    if (heard === payload) done();
  });
  return async () => {
    await delivered;
    stop();
  };
}

const probeChannel = 'delivery_probe';

/**
 * Waits until every notification committed so far (a trigger's after a direct write in a test) reached this
 * process's listeners: one connection listens on every channel, and notifications arrive in commit order.
 */
export async function notificationsDelivered(database: Database): Promise<void> {
  const probe = randomUUID();
  const delivered = await willHear(database, probeChannel, probe);
  await database.notify(probeChannel, probe);
  await delivered();
}
