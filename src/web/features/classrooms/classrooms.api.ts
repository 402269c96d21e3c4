import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type {
  AdminClassroom,
  AdminClassroomRow,
  AdminImportInput,
  ChangeUsersInput,
  ClassroomCandidatePage,
  ClassroomCandidatesQuery,
  ClassroomValues,
  ClassroomVideoOption,
  ExpiryWarning,
  ImportInput,
  ImportPreview,
  ManagedImportPreview,
  ManagedClassroom,
  ManagedClassroomRow,
  MyClassroom,
} from '#shared/classrooms/classrooms.schemas.ts';
import { accountKeys } from '#web/features/accounts/current-user.api.ts';
import { useRefreshQueries } from '#web/components/console/console-cache.ts';
import { catalogKeys } from '#web/features/catalog/catalog.api.ts';
import { api, queryString } from '#web/lib/api-client.ts';
import type { ClassroomProgress, ProgressQuery } from '#shared/progress/progress.schemas.ts';
import { progressSearch } from '#web/lib/progress-query.ts';

type Items<T> = { items: T[] };

/** Aulas for the Admin, the member and the aula administrator, all under ['classrooms']. */
const classroomKeys = {
  all: ['classrooms'] as const,
  admin: () => [...classroomKeys.all, 'admin'] as const,
  adminDetail: (id: string) => [...classroomKeys.admin(), 'detail', id] as const,
  videoOptions: () => [...classroomKeys.admin(), 'videos'] as const,
  candidates: (source: CandidateSource, query: ClassroomCandidatesQuery) =>
    [...classroomKeys.all, 'candidates', source, query] as const,
  mine: () => [...classroomKeys.all, 'mine'] as const,
  mineDetail: (id: string) => [...classroomKeys.mine(), id] as const,
  managed: () => [...classroomKeys.all, 'managed'] as const,
  managedDetail: (id: string) => [...classroomKeys.managed(), id] as const,
};

/** Catalogue pages show aula filters and locks, and the user's aula flags: refresh them after an aula changes. */
function useInvalidate() {
  const refresh = useRefreshQueries();
  return () => refresh([classroomKeys.all, catalogKeys.all, accountKeys.me()]);
}

// ---------- Admin ----------

export const adminClassroomsQuery = queryOptions({
  queryKey: classroomKeys.admin(),
  queryFn: () => api.get<Items<AdminClassroomRow>>('/api/admin/classrooms').then((body) => body.items),
});

export function useAdminClassrooms() {
  return useQuery(adminClassroomsQuery);
}

/** One aula as its form edits it (the console's route loads it beside the form's code). */
export const adminClassroomQuery = (id: string) =>
  queryOptions({
    queryKey: classroomKeys.adminDetail(id),
    queryFn: () => api.get<AdminClassroom>(`/api/admin/classrooms/${id}`),
  });

export function useAdminClassroom(id: string, enabled: boolean) {
  return useQuery({ ...adminClassroomQuery(id), enabled });
}

/** The videos an aula's form offers. */
export const classroomVideoOptionsQuery = queryOptions({
  queryKey: classroomKeys.videoOptions(),
  queryFn: () => api.get<Items<ClassroomVideoOption>>('/api/admin/classrooms/videos').then((body) => body.items),
});

export function useClassroomVideoOptions() {
  return useQuery(classroomVideoOptionsQuery);
}

/**
 * Whose accounts an aula's member table pages through: the Admin's form asks for the organization chosen in it (and
 * the aula saved under it, for the marks), the aula administrator for their aula.
 */
export type CandidateSource =
  { scope: 'admin'; organizationId: string; classroomId?: string } | { scope: 'classroom-admin'; classroomId: string };

/** One page of the accounts an aula admits, with a mark on its saved members. */
export const classroomCandidatesQuery = (source: CandidateSource, query: ClassroomCandidatesQuery) => {
  const path =
    source.scope === 'admin'
      ? `/api/admin/classrooms/candidates${queryString({ organizationId: source.organizationId, classroomId: source.classroomId, ...query })}`
      : `/api/classroom-admin/classrooms/${encodeURIComponent(source.classroomId)}/candidates${queryString(query)}`;
  return queryOptions({
    queryKey: classroomKeys.candidates(source, query),
    queryFn: ({ signal }) => api.get<ClassroomCandidatePage>(path, { signal }),
  });
};

/** The member table's page of candidates; the previous page shows meanwhile. */
export function useClassroomCandidates(source: CandidateSource, query: ClassroomCandidatesQuery) {
  return useQuery({ ...classroomCandidatesQuery(source, query), placeholderData: keepPreviousData });
}

export function useSaveClassroom(id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: ClassroomValues) => api.put<AdminClassroom>(`/api/admin/classrooms/${id}`, input),
    onSuccess: invalidate,
  });
}

export function useSetClassroomActive() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: { id: string; isActive: boolean }) =>
      api.put<unknown>(`/api/admin/classrooms/${input.id}/active`, { isActive: input.isActive }),
    onSuccess: invalidate,
  });
}

export function useDeleteClassroom() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.delete<unknown>(`/api/admin/classrooms/${id}`),
    onSuccess: invalidate,
  });
}

export function useAdminImportPreview() {
  return useMutation({
    mutationFn: (input: AdminImportInput) => api.post<ImportPreview>('/api/admin/classrooms/import-preview', input),
  });
}

export const adminExportHref = (id: string) => `/api/admin/classrooms/${id}/users.xlsx`;

// ---------- members ----------

export const myClassroomsQuery = queryOptions({
  queryKey: classroomKeys.mine(),
  queryFn: ({ signal }) => api.get<Items<MyClassroom>>('/api/classrooms', { signal }).then((body) => body.items),
});

export const myClassroomQuery = (id: string) =>
  queryOptions({
    queryKey: classroomKeys.mineDetail(id),
    queryFn: ({ signal }) => api.get<MyClassroom>(`/api/classrooms/${encodeURIComponent(id)}`, { signal }),
    retry: false,
  });

export function useMyClassrooms() {
  return useQuery(myClassroomsQuery);
}

export function useMyClassroom(id: string) {
  return useQuery(myClassroomQuery(id));
}

/** Claims the expiry warnings due now: the server returns each one once. */
export function claimExpiryWarnings(): Promise<ExpiryWarning[]> {
  return api.post<Items<ExpiryWarning>>('/api/classrooms/expiry-warnings').then((body) => body.items);
}

// ---------- aula administrators ----------

export function useManagedClassrooms() {
  return useQuery({
    queryKey: classroomKeys.managed(),
    queryFn: () => api.get<Items<ManagedClassroomRow>>('/api/classroom-admin/classrooms').then((body) => body.items),
  });
}

export function useManagedClassroom(id: string) {
  return useQuery({
    queryKey: classroomKeys.managedDetail(id),
    queryFn: () => api.get<ManagedClassroom>(`/api/classroom-admin/classrooms/${encodeURIComponent(id)}`),
    retry: false,
  });
}

/** 'Guardar': the ticks and unticks since the list was saved. */
export function useChangeManagedUsers(id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (changes: ChangeUsersInput) =>
      api.patch<unknown>(`/api/classroom-admin/classrooms/${id}/users`, changes),
    onSuccess: invalidate,
  });
}

export function useAddManagedUsers(id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (userIds: string[]) =>
      api.post<{ added: number }>(`/api/classroom-admin/classrooms/${id}/users`, { userIds }),
    onSuccess: invalidate,
  });
}

export function useManagedImportPreview(id: string) {
  return useMutation({
    mutationFn: (input: ImportInput) =>
      api.post<ManagedImportPreview>(`/api/classroom-admin/classrooms/${id}/import-preview`, input),
  });
}

export const managedExportHref = (id: string) => `/api/classroom-admin/classrooms/${id}/users.xlsx`;

/** An aula's progress, a page at a time: the aula administrator's scope, or the console's for the Admin. */
export function useClassroomProgress(scope: 'admin' | 'classroom-admin', id: string, query: ProgressQuery) {
  return useQuery({
    queryKey: [...classroomKeys.all, 'progress', scope, id, query],
    queryFn: () => api.get<ClassroomProgress>(`/api/${scope}/classrooms/${id}/progress?${progressSearch(query)}`),
    placeholderData: (previous) => previous,
  });
}

export const classroomProgressExportHref = (
  scope: 'admin' | 'classroom-admin',
  id: string,
  query: Omit<ProgressQuery, 'page'>,
) => `/api/${scope}/classrooms/${id}/progress.xlsx?${progressSearch(query)}`;
