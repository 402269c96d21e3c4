import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router';
import type { AdminDeleteAccountInput, DataExportState, DeleteAccountInput } from '#shared/privacy/privacy.schemas.ts';
import { api } from '#web/lib/api-client.ts';
import { forgetMember } from '#web/features/accounts/current-user.api.ts';
import { useRefreshPeople } from '#web/features/users/users.api.ts';
import { paths } from '#web/paths.ts';

const privacyKeys = {
  all: ['privacy'] as const,
  export: () => [...privacyKeys.all, 'export'] as const,
};

const privacyApi = {
  exportState: (signal?: AbortSignal) => api.get<DataExportState>('/api/privacy/export', { signal }),
  requestExport: () => api.post<DataExportState>('/api/privacy/export'),
  deleteAccount: (input: DeleteAccountInput) => api.post<void>('/api/privacy/delete-account', input),
  adminDeleteData: (userId: string, input: AdminDeleteAccountInput) =>
    api.post<void>(`/api/admin/users/${encodeURIComponent(userId)}/delete-data`, input),
};

/** The member's last export; asked again every few seconds while it is being prepared. */
export function usePrivacyExport() {
  return useQuery({
    queryKey: privacyKeys.export(),
    queryFn: ({ signal }) => privacyApi.exportState(signal),
    refetchInterval: (query) => (query.state.data?.export?.status === 'PENDIENTE' ? 3000 : false),
  });
}

export function useRequestExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: privacyApi.requestExport,
    onSuccess: (state) => queryClient.setQueryData(privacyKeys.export(), state),
  });
}

export const exportFileUrl = (id: string) => `/api/privacy/export/${encodeURIComponent(id)}/file`;

/** Deletes the signed-in member's account; the browser is then a guest on the home page. */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: privacyApi.deleteAccount,
    onSuccess: async () => {
      notifications.show({
        color: 'green',
        title: 'Cuenta eliminada',
        message: 'Eliminamos tu cuenta y tus datos personales. Te enviamos un correo de confirmación.',
        autoClose: 10_000,
      });
      await navigate(paths.home);
      forgetMember(queryClient);
    },
  });
}

/** An Admin deletes a member's data on their request. */
export function useAdminDeleteData(userId: string | undefined) {
  // the users list, report and statistics all drop the account
  const refresh = useRefreshPeople();
  return useMutation({
    mutationFn: (input: AdminDeleteAccountInput) => privacyApi.adminDeleteData(userId ?? '', input),
    onSuccess: refresh,
  });
}
