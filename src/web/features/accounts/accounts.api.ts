import { usePaymentsConfig } from '#web/features/payments/payments.api.ts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type { z } from 'zod';
import type { CurrentUser, LoginInput } from '#shared/accounts/accounts.schemas.ts';
import type { DeviceSessionList } from '#shared/accounts/devices.schemas.ts';
import type { Profile } from '#shared/accounts/profile.schemas.ts';
import type {
  emailAvailableResponseSchema,
  ProfileUpdateInput,
  SignUpInput,
  SignUpResponse,
  universitySuggestionsResponseSchema,
} from '#shared/accounts/signup.schemas.ts';
import type { paymentHistoryResponseSchema } from '#shared/payments/payments.schemas.ts';
import { api, queryString } from '#web/lib/api-client.ts';
import { accountKeys, useRefreshAccount } from './current-user.api.ts';

const sessionPath = (id: string) => `/api/account/sessions/${encodeURIComponent(id)}`;

const accountsApi = {
  login: (input: LoginInput) => api.post<{ user: CurrentUser }>('/api/account/login', input),
  signUp: (input: SignUpInput) => api.post<SignUpResponse>('/api/account/signup', input),
  finishBasicSignUp: () => api.post<void>('/api/account/signup/finish'),
  emailAvailable: (email: string, signal?: AbortSignal) =>
    api.get<z.infer<typeof emailAvailableResponseSchema>>(`/api/account/email-available${queryString({ email })}`, {
      signal,
    }),
  universities: (q: string, signal?: AbortSignal) =>
    api.get<z.infer<typeof universitySuggestionsResponseSchema>>(
      `/api/public-universities?q=${encodeURIComponent(q)}`,
      { signal },
    ),
  profile: (signal?: AbortSignal) => api.get<Profile>('/api/profile', { signal }),
  updateProfile: (input: ProfileUpdateInput) => api.put<Profile>('/api/profile', input),
  paymentHistory: (signal?: AbortSignal) =>
    api.get<z.infer<typeof paymentHistoryResponseSchema>>('/api/profile/payments', { signal }),
  requestPasswordReset: (email: string) => api.post<void>('/api/account/password-reset', { email }),
  checkResetCode: (code: string, signal?: AbortSignal) =>
    api.get<{ valid: boolean }>(`/api/account/password-reset/${encodeURIComponent(code)}`, { signal }),
  resetPassword: (input: { code: string; password: string; confirmPassword: string }) =>
    api.post<void>('/api/account/password-reset/confirm', input),
  sessions: (signal?: AbortSignal) => api.get<DeviceSessionList>('/api/account/sessions', { signal }),
  closeSession: (id: string) => api.delete<void>(sessionPath(id)),
  closeOtherSessions: () => api.post<{ closed: number }>('/api/account/sessions/close-others'),
};

/** Logs in and resolves with the user the server now sees for this session (the answer carries it: no second request). */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: LoginInput) => {
      const { user } = await accountsApi.login(input);
      queryClient.setQueryData(accountKeys.me(), user);
      return user;
    },
  });
}

export const profileQuery = queryOptions({
  queryKey: accountKeys.profile(),
  queryFn: ({ signal }) => accountsApi.profile(signal),
  retry: false,
});

export function useProfile() {
  return useQuery(profileQuery);
}

/** Payments in pesos at OXXO or by SPEI still waiting for the money (Mercado Pago configured only). */
/** How often a page showing a pending OXXO or SPEI payment asks whether Mercado Pago confirmed it (while visible). */
export const pendingPaymentPollMs = 10_000;

/**
 * The member's OXXO and SPEI payments still waiting for the money. While one is pending the list is asked again
 * every few seconds (TanStack Query pauses in a hidden tab), and when a payment the page saw pending leaves the
 * list, paid, expired or refused, every query is read again: the page then shows the Premium or the course it paid
 * for without a reload.
 */
export function usePendingPesosPayments(watching?: string) {
  const config = usePaymentsConfig();
  const queryClient = useQueryClient();
  // a voucher just made is pending before any list says so; a list read before this page opened is not evidence
  const seen = useRef(new Set(watching ? [watching] : []));
  const [since] = useState(() => Date.now());
  const pending = useQuery({
    queryKey: [...accountKeys.paymentHistory(), 'pending'],
    queryFn: ({ signal }) =>
      api
        .get<{
          payments: { paymentId: string; description: string; amountCents: number; createdAt: string }[];
        }>('/api/profile/payments/pending', { signal })
        .then((body) => body.payments),
    enabled: (config.data?.pesosMethods.length ?? 0) > 0,
    // asked again while any payment is pending, or one this page saw pending has not been seen settled yet
    refetchInterval: (query) => (query.state.data?.length || seen.current.size ? pendingPaymentPollMs : false),
  });
  const { data, dataUpdatedAt } = pending;
  useEffect(() => {
    if (!data || dataUpdatedAt < since) return;
    const now = new Set(data.map((payment) => payment.paymentId));
    const settled = [...seen.current].some((id) => !now.has(id));
    seen.current = now;
    if (settled) void queryClient.invalidateQueries();
  }, [data, dataUpdatedAt, since, queryClient]);
  return pending;
}

export function usePaymentHistory() {
  return useQuery({
    queryKey: accountKeys.paymentHistory(),
    queryFn: ({ signal }) => accountsApi.paymentHistory(signal).then((body) => body.payments),
  });
}

export function useSignUp() {
  const refresh = useRefreshAccount();
  return useMutation({ mutationFn: accountsApi.signUp, onSuccess: refresh });
}

export function useFinishBasicSignUp() {
  return useMutation({ mutationFn: accountsApi.finishBasicSignUp });
}

export async function isEmailAvailable(email: string, signal?: AbortSignal): Promise<boolean> {
  return (await accountsApi.emailAvailable(email, signal)).available;
}

export function useUniversitySuggestions(query: string) {
  return useQuery({
    queryKey: accountKeys.universities(query),
    queryFn: ({ signal }) => accountsApi.universities(query, signal).then((body) => body.universities),
    staleTime: 60_000,
    placeholderData: (previous) => previous,
  });
}

export function useUpdateProfile() {
  const refresh = useRefreshAccount();
  return useMutation({ mutationFn: accountsApi.updateProfile, onSuccess: refresh });
}

export function usePasswordRecovery() {
  return useMutation({ mutationFn: accountsApi.requestPasswordReset });
}

export function useResetCodeCheck(code: string) {
  return useQuery({
    queryKey: accountKeys.resetCode(code),
    queryFn: ({ signal }) => accountsApi.checkResetCode(code, signal).then((body) => body.valid),
    enabled: code !== '',
    retry: false,
    staleTime: Infinity,
  });
}

export function usePasswordReset() {
  return useMutation({ mutationFn: accountsApi.resetPassword });
}

/** The member's signed-in sessions; refreshed now and then so 'Reproduciendo aquí' follows the video. */
export function useDeviceSessions() {
  return useQuery({
    queryKey: accountKeys.sessions(),
    queryFn: ({ signal }) => accountsApi.sessions(signal).then((body) => body.sessions),
    refetchInterval: 30_000,
    retry: false,
  });
}

export function useCloseSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: accountsApi.closeSession,
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions() }),
  });
}

export function useCloseOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: accountsApi.closeOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.sessions() }),
  });
}
