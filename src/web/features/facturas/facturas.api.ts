import type { z } from 'zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FiscalData, myFacturaSchema, myFacturasSchema } from '#shared/facturas/fiscal.schemas.ts';
import { api } from '#web/lib/api-client.ts';

export type MyFactura = z.infer<typeof myFacturaSchema>;
export type MyFacturas = z.infer<typeof myFacturasSchema>;

const facturaKeys = { mine: ['facturas', 'mine'] as const };

/** The member's facturas, one per payment of the history, and the fiscal data kept from the last request. */
export function useMyFacturas() {
  return useQuery({
    queryKey: facturaKeys.mine,
    queryFn: ({ signal }) => api.get<MyFacturas>('/api/facturas', { signal }),
  });
}

/** 'Solicitar factura': the factura of one payment, issued from its receipt. */
export function useRequestFactura() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { paymentId: string; data: FiscalData }) =>
      api.post<MyFactura>(`/api/facturas/${input.paymentId}`, input.data),
    onSettled: () => client.invalidateQueries({ queryKey: facturaKeys.mine }),
  });
}
