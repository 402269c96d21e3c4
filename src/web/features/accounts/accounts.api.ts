import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import type { CurrentUser, LoginInput, MeResponse } from '#shared/accounts/accounts.schemas.ts';
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
import { paths } from '#web/paths.ts';

/** The signed-in member's own account: who they are, their profile, payments and devices. */
export const accountKeys = {
  all: ['account'] as const,
  me: () => [...accountKeys.all, 'me'] as const,
  profile: () => [...accountKeys.all, 'profile'] as const,
  paymentHistory: () => [...accountKeys.all, 'payments'] as const,
  sessions: () => [...accountKeys.all, 'sessions'] as const,
  universities: (q: string) => ['universities', q] as const,
  resetCode: (code: string) => ['password-reset', code] as const,
};

const sessionPath = (id: string) => `/api/account/sessions/${encodeURIComponent(id)}`;

const accountsApi = {
  me: (signal?: AbortSignal) => api.get<MeResponse>('/api/me', { signal }),
  login: (input: LoginInput) => api.post<{ user: CurrentUser }>('/api/account/login', input),
  logout: () => api.post<void>('/api/account/logout'),
  signUp: (input: SignUpInput) => api.post<SignUpResponse>('/api/account/signup', input),
  finishBasicSignUp: () => api.post<void>('/api/account/signup/finish'),
  emailAvailable: (email: string, signal?: AbortSignal) =>
    api.get<z.infer<typeof emailAvailableResponseSchema>>(`/api/account/email-available${queryString({ email })}`, { signal }),
  universities: (q: string, signal?: AbortSignal) =>
    api.get<z.infer<typeof universitySuggestionsResponseSchema>>(`/api/public-universities?q=${encodeURIComponent(q)}`, { signal }),
  profile: (signal?: AbortSignal) => api.get<Profile>('/api/profile', { signal }),
  updateProfile: (input: ProfileUpdateInput) => api.put<Profile>('/api/profile', input),
  paymentHistory: (signal?: AbortSignal) => api.get<z.infer<typeof paymentHistoryResponseSchema>>('/api/profile/payments', { signal }),
  requestPasswordReset: (email: string) => api.post<void>('/api/account/password-reset', { email }),
  checkResetCode: (code: string, signal?: AbortSignal) =>
    api.get<{ valid: boolean }>(`/api/account/password-reset/${encodeURIComponent(code)}`, { signal }),
  resetPassword: (input: { code: string; password: string; confirmPassword: string }) => api.post<void>('/api/account/password-reset/confirm', input),
  sessions: (signal?: AbortSignal) => api.get<DeviceSessionList>('/api/account/sessions', { signal }),
  closeSession: (id: string) => api.delete<void>(sessionPath(id)),
  closeOtherSessions: () => api.post<{ closed: number }>('/api/account/sessions/close-others'),
};

async function fetchCurrentUser(): Promise<CurrentUser | null> {
  try {
    const body = await accountsApi.me();
    return body?.user ?? null;
  } catch {
    // The spec: a failed user load yields a guest.
    return null;
  }
}

const currentUserQuery = () =>
  queryOptions({
    queryKey: accountKeys.me(),
    queryFn: fetchCurrentUser,
    staleTime: 5 * 60_000,
    retry: false,
  });

/** The logged-in user, or null for a guest; used by route loaders before rendering. */
export function loadCurrentUser(queryClient: QueryClient): Promise<CurrentUser | null> {
  return queryClient.ensureQueryData({ ...currentUserQuery(), revalidateIfStale: true });
}

export function useCurrentUser() {
  const query = useQuery(currentUserQuery());
  return { user: query.data ?? null, isPending: query.isPending };
}

/** After the session ends: nothing of the member stays in the cache, and the browser is a guest. */
export function forgetMember(queryClient: QueryClient) {
  const meHash = JSON.stringify(accountKeys.me());
  queryClient.removeQueries({ predicate: (query) => JSON.stringify(query.queryKey) !== meHash });
  queryClient.setQueryData(accountKeys.me(), null);
}

/** Refetches what a membership or profile change affects. */
export function useRefreshAccount() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: accountKeys.all });
}

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

/** Ends the session, then leaves the current page before forgetting the user. */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: accountsApi.logout,
    onSuccess: async () => {
      await navigate(paths.home);
      forgetMember(queryClient);
    },
  });
}

export function useProfile() {
  return useQuery({ queryKey: accountKeys.profile(), queryFn: ({ signal }) => accountsApi.profile(signal), retry: false });
}

export function usePaymentHistory() {
  return useQuery({ queryKey: accountKeys.paymentHistory(), queryFn: ({ signal }) => accountsApi.paymentHistory(signal).then((body) => body.payments) });
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
