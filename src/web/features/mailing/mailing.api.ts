import { useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { BulkMailInput, bulkMailCreatedSchema } from '#shared/mailing/mailing.schemas.ts';
import type { outboxResponseSchema } from '#shared/mailing/outbox.schemas.ts';
import { api, queryString } from '#web/lib/api-client.ts';

const mailingKeys = {
  all: ['mailing'] as const,
  outbox: (filters: { to: string }) => [...mailingKeys.all, 'outbox', filters] as const,
};

const mailingApi = {
  send: (input: BulkMailInput) => api.post<z.infer<typeof bulkMailCreatedSchema>>('/api/admin/mailing', input),
  outbox: (to: string, signal?: AbortSignal) =>
    api.get<z.infer<typeof outboxResponseSchema>>(`/api/admin/outbox${queryString({ limit: 50, to })}`, { signal }),
};

export function useSendBulkMail() {
  return useMutation({ mutationFn: mailingApi.send });
}

/** The mails kept in the database when no SMTP server is configured, newest first. */
export function useOutbox(to: string) {
  return useQuery({
    queryKey: mailingKeys.outbox({ to }),
    queryFn: ({ signal }) => mailingApi.outbox(to, signal).then((body) => body.mails),
    refetchInterval: 10_000,
  });
}
