import type { CardCheckout, OfflinePayment } from '#shared/payments/mercadopago.schemas.ts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CertificateSummary,
  CertificateVerification,
  Course,
  DiplomaSalesPage,
  ExamView,
  MemberDiplomaCard,
  SubmitExamInput,
} from '#shared/diplomas/diplomas.schemas.ts';
import { api, downloadFile } from '#web/lib/api-client.ts';

/** The member's diplomas, under the prefix the console's diploma queries share. */
export const diplomaKeys = {
  all: ['diplomas'] as const,
  list: () => [...keys.all, 'member'] as const,
  salesPage: (id: string) => [...keys.all, 'sales-page', id] as const,
  course: (id: string) => [...keys.all, 'course', id] as const,
  exam: (id: string, examId: string) => [...keys.all, 'exam', id, examId] as const,
  enrollment: (id: string) => [...keys.all, 'enrollment', id] as const,
  certificates: () => [...keys.all, 'certificates'] as const,
  verification: (code: string) => [...keys.all, 'verify', code] as const,
};
const keys = diplomaKeys;

export const certificatePdfUrl = (diplomaId: string) =>
  `/api/diplomas/${encodeURIComponent(diplomaId)}/certificate.pdf`;

export const myDiplomasQuery = queryOptions({
  queryKey: keys.list(),
  queryFn: async ({ signal }) => (await api.get<{ items: MemberDiplomaCard[] }>('/api/diplomas', { signal })).items,
});

export function useMyDiplomas() {
  return useQuery(myDiplomasQuery);
}

export function useSalesPage(id: string) {
  return useQuery({
    queryKey: keys.salesPage(id),
    queryFn: ({ signal }) =>
      api.get<DiplomaSalesPage>(`/api/diplomas/${encodeURIComponent(id)}/sales-page`, { signal }),
    retry: false,
  });
}

export const courseQuery = (id: string) =>
  queryOptions({
    queryKey: keys.course(id),
    queryFn: ({ signal }) => api.get<Course>(`/api/diplomas/${encodeURIComponent(id)}/course`, { signal }),
    retry: false,
  });

export function useCourse(id: string) {
  return useQuery(courseQuery(id));
}

export function useExam(id: string, examId: string | null) {
  return useQuery({
    queryKey: keys.exam(id, examId ?? ''),
    queryFn: ({ signal }) =>
      api.get<ExamView>(`/api/diplomas/${encodeURIComponent(id)}/exams/${encodeURIComponent(examId!)}`, { signal }),
    enabled: examId !== null,
    retry: false,
  });
}

function useRefreshCourse(id: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: keys.course(id) }),
      queryClient.invalidateQueries({ queryKey: keys.list() }),
    ]);
}

export function useCompleteVideo(id: string) {
  const refresh = useRefreshCourse(id);
  return useMutation({
    mutationFn: (videoId: string) =>
      api.post<{ progressPercent: number }>(
        `/api/diplomas/${encodeURIComponent(id)}/videos/${encodeURIComponent(videoId)}/complete`,
      ),
    onSuccess: refresh,
  });
}

export function useSaveAnswer(id: string, examId: string) {
  const queryClient = useQueryClient();
  const refresh = useRefreshCourse(id);
  return useMutation({
    mutationFn: (input: { questionId: string; answer: number }) =>
      api.put(`/api/diplomas/${encodeURIComponent(id)}/exams/${encodeURIComponent(examId)}/answers`, input),
    // a saved answer moves the exam from 'Sin iniciar' to 'En progreso', in the panel and on the course's badge
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: keys.exam(id, examId) }), refresh()]),
  });
}

export function useSubmitExam(id: string, examId: string) {
  const queryClient = useQueryClient();
  const refresh = useRefreshCourse(id);
  return useMutation({
    mutationFn: (input: SubmitExamInput) =>
      api.post<{ scorePercent: number; passed: boolean; progressPercent: number }>(
        `/api/diplomas/${encodeURIComponent(id)}/exams/${encodeURIComponent(examId)}/submit`,
        input,
      ),
    onSettled: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: keys.exam(id, examId) }), refresh()]);
    },
  });
}

export function useRetakeExam(id: string, examId: string) {
  const queryClient = useQueryClient();
  const refresh = useRefreshCourse(id);
  return useMutation({
    mutationFn: () => api.post(`/api/diplomas/${encodeURIComponent(id)}/exams/${encodeURIComponent(examId)}/retake`),
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: keys.exam(id, examId) }), refresh()]);
    },
  });
}

export function useStartPurchase(id: string) {
  return useMutation({
    mutationFn: () =>
      api.post<{ orderId: string; approvalUrl: string }>(`/api/diplomas/${encodeURIComponent(id)}/purchase`),
  });
}

/** A pending OXXO or SPEI payment of the diploma in pesos; access starts when Mercado Pago confirms it. */
export function useStartPesosPurchase(id: string) {
  return useMutation({
    mutationFn: (method: 'oxxo' | 'clabe') =>
      api.post<OfflinePayment>(`/api/diplomas/${encodeURIComponent(id)}/purchase/pesos`, { method }),
  });
}

/** A diploma by card in pesos on Mercado Pago's page; the caller sends the browser to approvalUrl. */
export function useStartPesosCardPurchase(id: string) {
  return useMutation({
    mutationFn: () => api.post<CardCheckout>(`/api/diplomas/${encodeURIComponent(id)}/purchase/pesos/card`),
  });
}

export function useConfirmPurchase(id: string) {
  return useMutation({
    mutationFn: (orderId: string) =>
      api.post<{ isEnrolled: boolean }>(`/api/diplomas/${encodeURIComponent(id)}/purchase/confirm`, { orderId }),
  });
}

export function useReportPurchaseError(id: string) {
  return useMutation({
    mutationFn: (input: { message: string; data?: { orderId: string } }) =>
      api.post(`/api/diplomas/${encodeURIComponent(id)}/purchase/error`, input),
  });
}

/** Polls until the server has added the member (the webhook may land after the browser returns). */
export function useEnrollment(id: string, poll: boolean) {
  return useQuery({
    queryKey: keys.enrollment(id),
    queryFn: ({ signal }) =>
      api.get<{ isEnrolled: boolean }>(`/api/diplomas/${encodeURIComponent(id)}/enrollment`, { signal }),
    refetchInterval: (query) => (poll && !query.state.data?.isEnrolled ? 2000 : false),
  });
}

export const myCertificatesQuery = queryOptions({
  queryKey: keys.certificates(),
  queryFn: async ({ signal }) =>
    (await api.get<{ items: CertificateSummary[] }>('/api/profile/certificates', { signal })).items,
});

export function useMyCertificates() {
  return useQuery(myCertificatesQuery);
}

/** The signed Open Badges credential of a certificate, downloaded as credential.json. */
export const credentialJsonUrl = (code: string) => `/api/certificates/${encodeURIComponent(code)}/credential`;

/** Our server's check of the credential's signature and of its bit in the status list. */
export function useCredentialCheck(code: string, enabled: boolean) {
  return useQuery({
    queryKey: [...keys.verification(code), 'credential'],
    queryFn: ({ signal }) =>
      api.get<{ valid: boolean; message: string }>(`${credentialJsonUrl(code)}/check`, { signal }),
    enabled,
    retry: false,
  });
}

export function useCertificateVerification(code: string) {
  return useQuery({
    queryKey: keys.verification(code),
    queryFn: ({ signal }) =>
      api.get<CertificateVerification>(`/api/certificates/${encodeURIComponent(code)}`, { signal }),
    retry: false,
  });
}

function useInvalidateCertificates(id: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: keys.course(id) }),
      queryClient.invalidateQueries({ queryKey: keys.certificates() }),
    ]);
}

/** Downloads the certificate (the server assigns the folio on the first one), then refreshes what shows it. */
export function useDownloadCertificate(id: string) {
  const refresh = useInvalidateCertificates(id);
  return useMutation({
    mutationFn: () => downloadFile(certificatePdfUrl(id), 'constancia.pdf'),
    onSettled: refresh,
  });
}
