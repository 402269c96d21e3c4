/**
 * The payload every subscriber gets when its LISTEN was lost (the database thread restarted, the connection dropped)
 * and again once it listens again: notifications in between were missed, so anything may have changed. A subscriber
 * that remembers state drops all of it.
 */
export const anyChange = '*';

/** A LISTEN subscriber: gets each NOTIFY payload of its channel. */
export type Handler = (payload: string) => void;

/** One real LISTEN per channel, shared by every handler of this process. */
export function createFanOut(startListening: (channel: string, deliver: Handler) => Promise<void>) {
  const handlers = new Map<string, Set<Handler>>();
  return async (channel: string, handler: Handler) => {
    let set = handlers.get(channel);
    if (!set) {
      const created = new Set<Handler>();
      handlers.set(channel, created);
      set = created;
      try {
        await startListening(channel, (payload) => {
          for (const each of created) each(payload);
        });
      } catch (error) {
        // the next subscriber tries LISTEN again instead of joining a channel nobody listens on
        handlers.delete(channel);
        throw error;
      }
    }
    set.add(handler);
    return () => void set.delete(handler);
  };
}

export const channelPattern = /^[a-z_]+$/;
