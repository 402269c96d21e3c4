import { useMutation } from '@tanstack/react-query';
import type { ContactInput } from '#shared/contact/contact.schemas.ts';
import { api } from '#web/lib/api-client.ts';

export function useSendContactMessage() {
  return useMutation({ mutationFn: (input: ContactInput) => api.post<void>('/api/contact', input) });
}
