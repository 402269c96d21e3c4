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

/** What carries the credit: a diploma, or a catalogue procedure (decision 049). */
export type CreditTarget = { kind: 'diploma' | 'procedure'; id: string };

const keys = {
  all: ['credits'] as const,
  mine: () => [...keys.all, 'mine'] as const,
  evaluation: (target: CreditTarget) => [...keys.all, 'evaluation', target.kind, target.id] as const,
  offer: (target: CreditTarget) => [...keys.all, 'offer', target.kind, target.id] as const,
  ofItem: (target: CreditTarget) => [...keys.all, 'item', target.kind, target.id] as const,
};
const collection = (target: CreditTarget) => (target.kind === 'diploma' ? 'diplomas' : 'procedures');
const memberBase = (target: CreditTarget) => `/api/${collection(target)}/${encodeURIComponent(target.id)}`;
const adminBase = (target: CreditTarget) => `/api/admin/${collection(target)}/${encodeURIComponent(target.id)}`;

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

/** The course or procedure page's evaluation; `progressKey` changes with the progress, so the state is read again. */
export function useEvaluation(target: CreditTarget, progressKey: string) {
  return useQuery({
    queryKey: [...keys.evaluation(target), progressKey],
    queryFn: () => api.get<EvaluationState>(`${memberBase(target)}/evaluation`),
    // a procedure's player saves the watched time by itself: its page asks again until the evaluation opens
    refetchInterval: (query) => {
      const state = query.state.data;
      return target.kind === 'procedure' && state?.offer && !state.canAnswer ? evaluationPollMs : false;
    },
  });
}

const evaluationPollMs = 10_000;

export function useSendEvaluation(target: CreditTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: EvaluationInput) => api.post<EvaluationState>(`${memberBase(target)}/evaluation`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.all }),
  });
}

export function useCreditOffer(target: CreditTarget) {
  return useQuery({
    queryKey: keys.offer(target),
    queryFn: () =>
      api.get<{ offer: CreditOfferInput | null }>(`${adminBase(target)}/credit`).then((body) => body.offer),
  });
}

export function useSaveCreditOffer(target: CreditTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreditOfferInput) =>
      api.put<{ offer: CreditOfferInput }>(`${adminBase(target)}/credit`, input).then((body) => body.offer),
    onSuccess: (offer) => queryClient.setQueryData(keys.offer(target), offer),
  });
}

export function useRemoveCreditOffer(target: CreditTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<{ ok: true }>(`${adminBase(target)}/credit`),
    onSuccess: () => queryClient.setQueryData(keys.offer(target), null),
  });
}

export function useItemCredits(target: CreditTarget) {
  return useQuery({
    queryKey: keys.ofItem(target),
    queryFn: () => api.get<{ items: AdminCreditRow[] }>(`${adminBase(target)}/credits`).then((body) => body.items),
  });
}

export function useRevokeCredit(target: CreditTarget) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ creditId, ...input }: RevokeCreditInput & { creditId: string }) =>
      api.post<{ ok: true }>(`/api/admin/credits/${encodeURIComponent(creditId)}/revoke`, input),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: keys.ofItem(target) });
      // the certificates panel shows the same revocation
      await queryClient.invalidateQueries({ queryKey: ['diplomas'] });
    },
  });
}

export const downloadCreditRecords = (target: CreditTarget, period: { from: string; to: string }) =>
  downloadFile(`${adminBase(target)}/credit-records.xlsx${queryString(period)}`, 'registros.xlsx');
