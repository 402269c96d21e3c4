import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  AdminDiploma,
  AdminDiplomaRow,
  AdminDiplomaVideo,
  AdminExam,
  DiplomaActivationWarnings,
  DiplomaAdminCandidates,
  DiplomaInput,
  DiplomaOptions,
  DiplomaPreview,
  DiplomaStatistics,
  DiplomaStatisticsQuery,
  DiplomaUserPage,
  DiplomaUsersQuery,
  ExamInput,
  ManagedDiploma,
  OwnVideoInput,
} from '#shared/diplomas/diplomas.admin.schemas.ts';
import type { adminCertificateListSchema, RevokeCertificateInput } from '#shared/diplomas/diplomas.schemas.ts';
import type { ImportInput, ManagedImportPreview } from '#shared/classrooms/classrooms.schemas.ts';
import type { DiplomaProgress, ProgressQuery } from '#shared/progress/progress.schemas.ts';
import { progressSearch } from '#web/lib/progress-query.ts';
import { api, queryString } from '#web/lib/api-client.ts';

type Items<T> = { items: T[] };
const base = (id: string) => `/api/admin/diplomas/${encodeURIComponent(id)}`;
/** Console and diploma-administrator queries, under the diplomas prefix the member pages share. */
const keys = {
  all: ['diplomas'] as const,
  admin: () => [...keys.all, 'admin'] as const,
  one: (id: string) => [...keys.admin(), id] as const,
  certificates: (id: string) => [...keys.one(id), 'certificates'] as const,
  managed: () => [...keys.all, 'managed'] as const,
};

/** Any change can show in the list, the tabs, the statistics and the member pages: refresh them all. */
function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: keys.all });
}

export const adminDiplomasQuery = queryOptions({
  queryKey: [...keys.admin(), 'list'],
  queryFn: () => api.get<Items<AdminDiplomaRow>>('/api/admin/diplomas').then((body) => body.items),
});

export function useAdminDiplomas() {
  return useQuery(adminDiplomasQuery);
}

/** The organizations and surgeries a diploma's general tab offers. */
export const diplomaOptionsQuery = queryOptions({
  queryKey: [...keys.admin(), 'options'],
  queryFn: () => api.get<DiplomaOptions>('/api/admin/diplomas/options'),
});

export function useDiplomaOptions() {
  return useQuery(diplomaOptionsQuery);
}

/** Users whose e-mail contains `query`, as the Admin types the diploma's administrator. */
export const diplomaAdminCandidatesQuery = (query: string) =>
  queryOptions({
    queryKey: [...keys.admin(), 'admin-candidates', query],
    queryFn: ({ signal }) =>
      api
        .get<DiplomaAdminCandidates>(`/api/admin/diplomas/admin-candidates${queryString({ q: query })}`, { signal })
        .then((body) => body.people),
  });

/** One diploma's general tab, the editor's first (the console's route loads it beside the editor's code). */
export const adminDiplomaQuery = (id: string) =>
  queryOptions({ queryKey: [...keys.one(id), 'general'], queryFn: () => api.get<AdminDiploma>(base(id)) });

export function useAdminDiploma(id: string, enabled = true) {
  return useQuery({ ...adminDiplomaQuery(id), enabled });
}

export function useSaveDiploma(id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: DiplomaInput) => api.put<AdminDiploma>(base(id), input),
    onSuccess: invalidate,
  });
}

export function useSetDiplomaActive() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, isActive }: { id: string; isActive: boolean }) => api.put(`${base(id)}/active`, { isActive }),
    onSuccess: invalidate,
  });
}

/** Asked right before activating, so it is never stale. */
export const diplomaActivationWarnings = (id: string) =>
  api.get<DiplomaActivationWarnings>(`${base(id)}/activation-warnings`);

export function useDeleteDiploma() {
  const invalidate = useInvalidate();
  return useMutation({ mutationFn: (id: string) => api.delete(base(id)), onSuccess: invalidate });
}

// ---------- videos ----------

export function useDiplomaVideos(id: string) {
  return useQuery({
    queryKey: [...keys.one(id), 'videos'],
    queryFn: () => api.get<Items<AdminDiplomaVideo>>(`${base(id)}/videos`).then((body) => body.items),
  });
}

export function useVideoActions(id: string) {
  const invalidate = useInvalidate();
  const options = { onSuccess: invalidate };
  return {
    link: useMutation({
      mutationFn: (procedureId: string) => api.post(`${base(id)}/videos`, { procedureId }),
      ...options,
    }),
    save: useMutation({
      mutationFn: ({ videoId, input }: { videoId: string; input: OwnVideoInput }) =>
        api.put(`${base(id)}/videos/${videoId}`, input),
      ...options,
    }),
    setActive: useMutation({
      mutationFn: ({ videoId, isActive }: { videoId: string; isActive: boolean }) =>
        api.put(`${base(id)}/videos/${videoId}/active`, { isActive }),
      ...options,
    }),
    move: useMutation({
      mutationFn: ({ videoId, direction }: { videoId: string; direction: 'up' | 'down' }) =>
        api.post(`${base(id)}/videos/${videoId}/move`, { direction }),
      ...options,
    }),
    remove: useMutation({ mutationFn: (videoId: string) => api.delete(`${base(id)}/videos/${videoId}`), ...options }),
  };
}

// ---------- exams ----------

export function useDiplomaExams(id: string) {
  return useQuery({
    queryKey: [...keys.one(id), 'exams'],
    queryFn: () => api.get<Items<AdminExam>>(`${base(id)}/exams`).then((body) => body.items),
  });
}

export function useExamActions(id: string) {
  const invalidate = useInvalidate();
  const options = { onSuccess: invalidate };
  return {
    save: useMutation({
      mutationFn: ({ examId, input }: { examId: string; input: ExamInput }) =>
        api.put(`${base(id)}/exams/${examId}`, input),
      ...options,
    }),
    setActive: useMutation({
      mutationFn: ({ examId, isActive }: { examId: string; isActive: boolean }) =>
        api.put(`${base(id)}/exams/${examId}/active`, { isActive }),
      ...options,
    }),
    remove: useMutation({ mutationFn: (examId: string) => api.delete(`${base(id)}/exams/${examId}`), ...options }),
  };
}

// ---------- users (Admin console and diploma administrators share the table) ----------

export type UserListApi = 'admin' | 'diploma-admin';
const usersBase = (scope: UserListApi, id: string) =>
  scope === 'admin' ? `${base(id)}/users` : `/api/diploma-admin/diplomas/${encodeURIComponent(id)}/users`;

/** One page of the users a diploma may take, with a mark on its members; the previous page shows while the next loads. */
export function useDiplomaUsers(scope: UserListApi, id: string, query: DiplomaUsersQuery) {
  return useQuery({
    queryKey: [...(scope === 'admin' ? keys.one(id) : [...keys.managed(), id]), 'users', query],
    queryFn: ({ signal }) => api.get<DiplomaUserPage>(`${usersBase(scope, id)}${queryString(query)}`, { signal }),
    placeholderData: (previous) => previous,
  });
}

export function useAssignDiplomaUser(scope: UserListApi, id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ userId, assigned }: { userId: string; assigned: boolean }) =>
      api.put(`${usersBase(scope, id)}/${encodeURIComponent(userId)}`, { assigned }),
    onSuccess: invalidate,
  });
}

/** 'Importar usuarios': what the file or list would add, line by line; nothing is written. */
export function useDiplomaImportPreview(scope: UserListApi, id: string) {
  return useMutation({
    mutationFn: (input: ImportInput) =>
      api.post<ManagedImportPreview>(`${usersBase(scope, id).replace(/\/users$/, '')}/import-preview`, input),
  });
}

export function useAddDiplomaUsers(scope: UserListApi, id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (userIds: string[]) => api.post<{ added: number }>(usersBase(scope, id), { userIds }),
    onSuccess: invalidate,
  });
}

// ---------- progress ----------

const progressBase = (scope: UserListApi, id: string) => `${usersBase(scope, id).replace(/\/users$/, '')}/progress`;

export function useDiplomaProgress(scope: UserListApi, id: string, query: ProgressQuery) {
  return useQuery({
    queryKey: [...(scope === 'admin' ? keys.one(id) : [...keys.managed(), id]), 'progress', query],
    queryFn: () => api.get<DiplomaProgress>(`${progressBase(scope, id)}?${progressSearch(query)}`),
    placeholderData: (previous) => previous,
  });
}

export const diplomaProgressExportHref = (scope: UserListApi, id: string, query: Omit<ProgressQuery, 'page'>) =>
  `${progressBase(scope, id)}.xlsx?${progressSearch(query)}`;

// ---------- statistics and preview ----------

/** The tab's figures, with one page of the scores table; the last page stays on screen while the next loads. */
export function useDiplomaStatistics(id: string, query: DiplomaStatisticsQuery) {
  return useQuery({
    queryKey: [...keys.one(id), 'statistics', query],
    queryFn: ({ signal }) => api.get<DiplomaStatistics>(`${base(id)}/statistics${queryString(query)}`, { signal }),
    placeholderData: (previous) => previous,
  });
}

export function useDiplomaPreview(id: string) {
  return useQuery({
    queryKey: [...keys.one(id), 'preview'],
    queryFn: () => api.get<DiplomaPreview>(`${base(id)}/preview`),
  });
}

// ---------- diploma administrators ----------

export function useManagedDiplomas() {
  return useQuery({
    queryKey: [...keys.managed(), 'list'],
    queryFn: () => api.get<Items<ManagedDiploma>>('/api/diploma-admin/diplomas').then((body) => body.items),
  });
}

export function useManagedDiploma(id: string) {
  return useQuery({
    queryKey: [...keys.managed(), id],
    queryFn: () => api.get<ManagedDiploma>(`/api/diploma-admin/diplomas/${encodeURIComponent(id)}`),
  });
}

// ---------- certificates ----------

export function useDiplomaCertificates(id: string) {
  return useQuery({
    queryKey: keys.certificates(id),
    queryFn: () =>
      api.get<z.infer<typeof adminCertificateListSchema>>(`${base(id)}/certificates`).then((body) => body.items),
  });
}

/** Revokes a certificate with a reason; its folio is never given again. */
export function useRevokeCertificate(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ certificateId, ...input }: { certificateId: string } & RevokeCertificateInput) =>
      api.post(`/api/admin/certificates/${encodeURIComponent(certificateId)}/revoke`, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: keys.certificates(id) }),
  });
}
