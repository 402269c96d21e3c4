import type { z } from 'zod';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminFacturaData, myFacturaSchema, myFacturasSchema } from '#shared/facturas/fiscal.schemas.ts';
import { api } from '#web/lib/api-client.ts';

type MyFactura = z.infer<typeof myFacturaSchema>;
export type MyFacturas = z.infer<typeof myFacturasSchema>;

const facturaKeys = { mine: ['facturas', 'mine'] as const };

/** The member's facturas, one per payment of the history, and the fiscal data kept from the last request. */
export function useMyFacturas() {
  return useQuery({
    queryKey: facturaKeys.mine,
    queryFn: ({ signal }) => api.get<MyFacturas>('/api/facturas', { signal }),
  });
}

/** 'Solicitar factura': the factura of one payment, issued from its receipt (the Admin's: to any RFC). */
export function useRequestFactura(admin = false) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { paymentId: string; data: AdminFacturaData }) =>
      api.post<{ state: string; error: string | null }>(
        `/api/${admin ? 'admin/' : ''}facturas/${input.paymentId}`,
        input.data,
      ),
    onSettled: () => client.invalidateQueries({ queryKey: ['facturas'] }),
  });
}

export type AdminFactura = {
  paymentId: string;
  description: string;
  amountCents: number;
  currency: string;
  result: string;
  occurredAt: string;
  state: MyFactura['state'];
  rfc: string | null;
  invoiceUuid: string | null;
  cancellationMotive: string | null;
  error: string | null;
  creditNotes: (Omit<MyFactura['creditNotes'][number], 'state'> & {
    state: MyFactura['creditNotes'][number]['state'] | 'no_emitida';
    error: string | null;
  })[];
};

/** The console's payments in pesos with their receipt and factura. */
export function useAdminFacturas() {
  return useQuery({
    queryKey: ['facturas', 'admin'],
    queryFn: ({ signal }) =>
      api.get<{ available: boolean; payments: AdminFactura[] }>('/api/admin/facturas', { signal }),
  });
}

/** The console's global invoices, one per month. */
export function useGlobalInvoices() {
  return useQuery({
    queryKey: ['facturas', 'global'],
    queryFn: ({ signal }) =>
      api.get<{ invoices: { month: string; status: string; invoiceUuid: string | null; totalCents: number | null }[] }>(
        '/api/admin/facturas/global',
        { signal },
      ),
  });
}

/** Issues last month's global invoice now, instead of waiting for the daily job. */
export function useRunGlobalInvoice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<{ invoices: unknown[] }>('/api/admin/facturas/global', {}),
    onSettled: () => client.invalidateQueries({ queryKey: ['facturas'] }),
  });
}

/** Cancels a factura with the SAT's motive (01–04). */
export function useCancelFactura() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { paymentId: string; motive: string }) =>
      api.post<AdminFactura>(`/api/admin/facturas/${input.paymentId}/cancel`, { motive: input.motive }),
    onSettled: () => client.invalidateQueries({ queryKey: ['facturas'] }),
  });
}
