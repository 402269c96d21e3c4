import { api } from '#web/lib/api-client.ts';

export const viewingApi = {
  /** Takes the account's single viewing slot for this device. */
  takeToken: () => api.post<{ token: string }>('/api/viewing/token'),
  eventsUrl: (token: string) => `/api/viewing/events?token=${encodeURIComponent(token)}`,
};
