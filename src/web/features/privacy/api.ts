import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { notifications } from '@mantine/notifications';
import { useNavigate } from 'react-router';
import type { AdminDeleteAccountInput, DataExportState, DeleteAccountInput } from '#shared/privacy/privacy.schemas.ts';
import { api } from '#web/lib/api-client.ts';
import { currentUserQueryKey } from '#web/features/accounts/api.ts';
import { paths } from '#web/paths.ts';

const exportQueryKey = ['privacy-export'] as const;

/** The member's last export; asked again every few seconds while it is being prepared. */
export function usePrivacyExport() {
  return useQuery({
    queryKey: exportQueryKey,
    queryFn: () => api.get<DataExportState>('/api/privacy/export'),
    refetchInterval: (query) => (query.state.data?.export?.status === 'PENDIENTE' ? 3000 : false),
  });
}

export function useRequestExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<DataExportState>('/api/privacy/export'),
    onSuccess: (state) => queryClient.setQueryData(exportQueryKey, state),
  });
}

export const exportFileUrl = (id: string) => `/api/privacy/export/${encodeURIComponent(id)}/file`;

/** Deletes the signed-in member's account; the browser is then a guest on the home page. */
export function useDeleteAccount() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: (input: DeleteAccountInput) => api.post<void>('/api/privacy/delete-account', input),
    onSuccess: async () => {
      notifications.show({
        color: 'green',
        title: 'Cuenta eliminada',
        message: 'Eliminamos tu cuenta y tus datos personales. Te enviamos un correo de confirmación.',
        autoClose: 10_000,
      });
      await navigate(paths.home);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== currentUserQueryKey[0] });
      queryClient.setQueryData(currentUserQueryKey, null);
    },
  });
}

/** An Admin deletes a member's data on their request. */
export function useAdminDeleteData(userId: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AdminDeleteAccountInput) => api.post<void>(`/api/admin/users/${encodeURIComponent(userId ?? '')}/delete-data`, input),
    // the users list, report and statistics all drop the account
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin'] }),
  });
}
