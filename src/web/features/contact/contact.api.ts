import { useMutation } from '@tanstack/react-query';
import type { ContactInput } from '#shared/contact/contact.schemas.ts';
import { api } from '#web/lib/api-client.ts';

const contactApi = {
  send: (input: ContactInput) => api.post<void>('/api/contact', input),
};

export function useSendContactMessage() {
  return useMutation({ mutationFn: contactApi.send });
}
