/** Open live-update streams allowed per account (a few tabs) and per IP (a campus NAT watching together). */
const defaultStreamLimits = { perAccount: 5, perIp: 100 };

type Stream = { userId: string; ip: string; close: () => void };

/**
 * The live-update streams of this process, capped per account and per IP: opening one more closes the oldest
 * (of the account, or of the IP) first, so a tab left open never blocks a new one and nobody holds hundreds.
 */
export function createStreamRegistry(limits: { perAccount: number; perIp: number } = defaultStreamLimits) {
  const byUser = new Map<string, Stream[]>();
  const byIp = new Map<string, Stream[]>();

  const take = (map: Map<string, Stream[]>, key: string, stream: Stream) => {
    const list = map.get(key);
    if (!list) return;
    const index = list.indexOf(stream);
    if (index >= 0) list.splice(index, 1);
    if (list.length === 0) map.delete(key);
  };
  const remove = (stream: Stream) => {
    take(byUser, stream.userId, stream);
    take(byIp, stream.ip, stream);
  };
  const push = (map: Map<string, Stream[]>, key: string, stream: Stream, max: number) => {
    const list = map.get(key) ?? [];
    map.set(key, list);
    list.push(stream);
    while (list.length > max) {
      const oldest = list[0]!;
      remove(oldest);
      oldest.close();
    }
  };

  /** Registers an open stream; `close` ends it when it is evicted. Returns the function to call when it ends. */
  function open(userId: string, ip: string, close: () => void): () => void {
    const stream: Stream = { userId, ip, close };
    push(byUser, userId, stream, limits.perAccount);
    push(byIp, ip, stream, limits.perIp);
    return () => remove(stream);
  }

  const count = (key: { userId?: string; ip?: string }) =>
    key.userId !== undefined ? (byUser.get(key.userId)?.length ?? 0) : (byIp.get(key.ip ?? '')?.length ?? 0);

  return { open, count };
}

export type StreamRegistry = ReturnType<typeof createStreamRegistry>;
