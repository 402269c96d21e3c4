import { z } from 'zod';

/** What kind of device a session's browser runs on, from its user agent. */
const deviceKinds = ['desktop', 'mobile', 'tablet', 'unknown'] as const;
export type DeviceKind = (typeof deviceKinds)[number];

/** One signed-in session of the member, as 'Mis dispositivos' lists it. */
const deviceSessionSchema = z.object({
  id: z.string(),
  /** e.g. 'Chrome en Windows'. */
  device: z.string(),
  kind: z.enum(deviceKinds),
  /** 'Red local' for private addresses; no geo-IP lookup (docs/decisions/008). */
  place: z.string(),
  /** Partially masked, e.g. '203.0.113.x'; null when unknown. */
  ipAddress: z.string().nullable(),
  signedInAt: z.string(),
  lastActiveAt: z.string(),
  isCurrent: z.boolean(),
  /** Holds the account's viewing token: the full videos play on this device (single-device rule). */
  isPlaying: z.boolean(),
});
export type DeviceSession = z.infer<typeof deviceSessionSchema>;

export const deviceSessionListSchema = z.object({ sessions: z.array(deviceSessionSchema) });
export type DeviceSessionList = z.infer<typeof deviceSessionListSchema>;

export const deviceSessionParamsSchema = z.object({ id: z.string().min(1).max(100) });

export const closedSessionsSchema = z.object({ closed: z.number().int() });
