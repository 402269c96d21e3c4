import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { membershipCheckResponseSchema, membershipResponseSchema } from '#shared/membership/membership.schemas.ts';
import { useRefreshAccount } from '#web/features/accounts/current-user.api.ts';
import { api } from '#web/lib/api-client.ts';

export const membershipApi = {
  /** Applies a due scheduled change; `changed` says whether one was applied. */
  check: () => api.post<z.infer<typeof membershipCheckResponseSchema>>('/api/membership/check'),
  change: (action: 'downgrade' | 'reactivate') =>
    api.post<z.infer<typeof membershipResponseSchema>>(`/api/membership/${action}`),
};

/** The member's own plan change; the profile shows the new state afterwards, whatever the answer. */
export function useMembershipChange(action: 'downgrade' | 'reactivate') {
  const refresh = useRefreshAccount();
  return useMutation({ mutationFn: () => membershipApi.change(action), onSettled: refresh });
}
