import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AdminCreditRow,
  CreditOfferInput,
  EvaluationInput,
  EvaluationState,
  LicenceInput,
  MyCredits,
  RevokeCreditInput,
} from '#shared/credits/credits.schemas.ts';
import { api, downloadFile, queryString } from '#web/lib/api-client.ts';

const keys = {
  all: ['credits'] as const,
  mine: () => [...keys.all, 'mine'] as const,
  evaluation: (diplomaId: string) => [...keys.all, 'evaluation', diplomaId] as const,
  offer: (diplomaId: string) => [...keys.all, 'offer', diplomaId] as const,
  ofDiploma: (diplomaId: string) => [...keys.all, 'diploma', diplomaId] as const,
};
const adminBase = (diplomaId: string) => `/api/admin/diplomas/${encodeURIComponent(diplomaId)}`;

/** 'Mis créditos': the member's items, totals per body and per year, and cédula. */
export function useMyCredits() {
  return useQuery({ queryKey: keys.mine(), queryFn: () => api.get<MyCredits>('/api/credits') });
}

export function useSaveLicence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LicenceInput) => api.put<{ ok: true }>('/api/credits/licence', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.mine() }),
  });
}

export const downloadCreditsCsv = () => downloadFile('/api/credits/creditos.csv', 'creditos.csv');
export const downloadTranscript = (year: number) =>
  downloadFile(`/api/credits/transcript/${year}`, `creditos-${year}.pdf`);
export const downloadCreditCertificate = (creditId: string) =>
  downloadFile(`/api/credits/${encodeURIComponent(creditId)}/certificate.pdf`, 'constancia-creditos.pdf');

/** The course page's evaluation; `progressKey` changes when the course does, so the state is read again. */
export function useEvaluation(diplomaId: string, progressKey: string) {
  return useQuery({
    queryKey: [...keys.evaluation(diplomaId), progressKey],
    queryFn: () => api.get<EvaluationState>(`/api/diplomas/${encodeURIComponent(diplomaId)}/evaluation`),
  });
}

export function useSendEvaluation(diplomaId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EvaluationInput) =>
      api.post<EvaluationState>(`/api/diplomas/${encodeURIComponent(diplomaId)}/evaluation`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}

export function useCreditOffer(diplomaId: string) {
  return useQuery({
    queryKey: keys.offer(diplomaId),
    queryFn: () =>
      api.get<{ offer: CreditOfferInput | null }>(`${adminBase(diplomaId)}/credit`).then((body) => body.offer),
  });
}

export function useSaveCreditOffer(diplomaId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreditOfferInput) =>
      api.put<{ offer: CreditOfferInput }>(`${adminBase(diplomaId)}/credit`, input).then((body) => body.offer),
    onSuccess: (offer) => queryClient.setQueryData(keys.offer(diplomaId), offer),
  });
}

export function useRemoveCreditOffer(diplomaId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<{ ok: true }>(`${adminBase(diplomaId)}/credit`),
    onSuccess: () => queryClient.setQueryData(keys.offer(diplomaId), null),
  });
}

export function useDiplomaCredits(diplomaId: string) {
  return useQuery({
    queryKey: keys.ofDiploma(diplomaId),
    queryFn: () => api.get<{ items: AdminCreditRow[] }>(`${adminBase(diplomaId)}/credits`).then((body) => body.items),
  });
}

export function useRevokeCredit(diplomaId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ creditId, ...input }: RevokeCreditInput & { creditId: string }) =>
      api.post<{ ok: true }>(`/api/admin/credits/${encodeURIComponent(creditId)}/revoke`, input),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keys.ofDiploma(diplomaId) });
      // the certificates panel shows the same revocation
      await queryClient.invalidateQueries({ queryKey: ['diplomas'] });
    },
  });
}

export const downloadCreditRecords = (diplomaId: string, period: { from: string; to: string }) =>
  downloadFile(`${adminBase(diplomaId)}/credit-records.xlsx${queryString(period)}`, 'registros.xlsx');
