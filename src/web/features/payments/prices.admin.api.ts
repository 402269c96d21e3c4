import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MxnPlanPrices } from '#shared/payments/prices.schemas.ts';
import { api } from '#web/lib/api-client.ts';

const priceKeys = { mxn: ['prices', 'mxn'] as const };

/** The plans' prices in pesos the Admin set ('' for none). */
export function useMxnPlanPrices() {
  return useQuery({
    queryKey: priceKeys.mxn,
    queryFn: ({ signal }) => api.get<MxnPlanPrices>('/api/admin/prices/mxn', { signal }),
  });
}

export function useSaveMxnPlanPrices() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: MxnPlanPrices) => api.put<MxnPlanPrices>('/api/admin/prices/mxn', input),
    onSuccess: (saved) => client.setQueryData(priceKeys.mxn, saved),
  });
}
