import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Profile } from '#shared/accounts/profile.schemas.ts';
import type { ProfileUpdateInput, SignUpInput, SignUpResponse, UniversitySuggestion } from '#shared/accounts/signup.schemas.ts';
import type { Membership } from '#shared/membership/membership.schemas.ts';
import type { PaymentRecord, PaymentsConfig } from '#shared/payments/payments.schemas.ts';
import type { Plan } from '#shared/payments/payments.rules.ts';
import { api } from '#web/lib/api-client.ts';
import { currentUserQueryKey } from './api.ts';

export const profileQueryKey = ['profile'] as const;

export const profileQuery = () =>
  queryOptions({ queryKey: profileQueryKey, queryFn: () => api.get<Profile>('/api/profile'), retry: false });

export function useProfile() {
  return useQuery(profileQuery());
}

export function usePaymentsConfig() {
  return useQuery({
    queryKey: ['payments-config'],
    queryFn: () => api.get<PaymentsConfig>('/api/payments/config'),
    staleTime: Infinity,
  });
}

export function usePaymentHistory() {
  return useQuery({
    queryKey: ['payment-history'],
    queryFn: async () => (await api.get<{ payments: PaymentRecord[] }>('/api/profile/payments')).payments,
  });
}

/** Refetches what a membership or profile change affects. */
function useRefreshAccount() {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: currentUserQueryKey }),
      queryClient.invalidateQueries({ queryKey: profileQueryKey }),
      queryClient.invalidateQueries({ queryKey: ['payment-history'] }),
    ]);
  };
}

export function useSignUp() {
  const refresh = useRefreshAccount();
  return useMutation({
    mutationFn: (input: SignUpInput) => api.post<SignUpResponse>('/api/account/signup', input),
    onSuccess: refresh,
  });
}

export function useFinishBasicSignUp() {
  return useMutation({ mutationFn: () => api.post<void>('/api/account/signup/finish') });
}

export async function isEmailAvailable(email: string, signal?: AbortSignal): Promise<boolean> {
  const body = await api.get<{ available: boolean }>(`/api/account/email-available?email=${encodeURIComponent(email)}`, { signal });
  return body.available;
}

export function useUniversitySuggestions(query: string) {
  return useQuery({
    queryKey: ['public-universities', query],
    queryFn: async ({ signal }) =>
      (await api.get<{ universities: UniversitySuggestion[] }>(`/api/public-universities?q=${encodeURIComponent(query)}`, { signal })).universities,
    staleTime: 60_000,
    placeholderData: (previous) => previous,
  });
}

export function useUpdateProfile() {
  const refresh = useRefreshAccount();
  return useMutation({
    mutationFn: (input: ProfileUpdateInput) => api.put<Profile>('/api/profile', input),
    onSuccess: refresh,
  });
}

export function useMembershipChange(action: 'downgrade' | 'reactivate') {
  const refresh = useRefreshAccount();
  return useMutation({
    mutationFn: () => api.post<{ membership: Membership }>(`/api/membership/${action}`),
    onSettled: refresh,
  });
}

/** Starts a subscription at the provider; the caller sends the browser to approvalUrl. */
export function useStartSubscription() {
  return useMutation({
    mutationFn: (input: { plan: Plan; returnTo: 'signup' | 'profile' }) =>
      api.post<{ subscriptionId: string; approvalUrl: string }>('/api/payments/subscriptions', input),
  });
}

/** Asks the server to check a returning subscription with the provider. */
export function useConfirmSubscription() {
  const refresh = useRefreshAccount();
  return useMutation({
    mutationFn: (subscriptionId: string) =>
      api.post<{ state: string; isPremium: boolean }>(`/api/payments/subscriptions/${encodeURIComponent(subscriptionId)}/confirm`),
    onSuccess: refresh,
  });
}

export function usePasswordRecovery() {
  return useMutation({ mutationFn: (email: string) => api.post<void>('/api/account/password-reset', { email }) });
}

export function useResetCodeCheck(code: string) {
  return useQuery({
    queryKey: ['reset-code', code],
    queryFn: async () => (await api.get<{ valid: boolean }>(`/api/account/password-reset/${encodeURIComponent(code)}`)).valid,
    enabled: code !== '',
    retry: false,
    staleTime: Infinity,
  });
}

export function usePasswordReset() {
  return useMutation({
    mutationFn: (input: { code: string; password: string; confirmPassword: string }) =>
      api.post<void>('/api/account/password-reset/confirm', input),
  });
}
