import { useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type {
  LtiConsole,
  LtiPlatform,
  LtiPlatformInput,
  LtiRegistrationInput,
  LtiRegistrationUrl,
  ltiScoreListSchema,
} from '#shared/lti/lti.admin.schemas.ts';
import { useRefreshQueries } from '#web/components/console/console-cache.ts';
import { api } from '#web/lib/api-client.ts';

const ltiKeys = {
  all: ['lti'] as const,
  platforms: () => [...ltiKeys.all, 'platforms'] as const,
  scores: () => [...ltiKeys.all, 'scores'] as const,
};

const platformPath = (id: string) => `/api/admin/lti/platforms/${encodeURIComponent(id)}`;

export function useLtiConsole() {
  return useQuery({
    queryKey: ltiKeys.platforms(),
    queryFn: ({ signal }) => api.get<LtiConsole>('/api/admin/lti/platforms', { signal }),
  });
}

export function useLtiScores() {
  return useQuery({
    queryKey: ltiKeys.scores(),
    queryFn: ({ signal }) =>
      api.get<z.infer<typeof ltiScoreListSchema>>('/api/admin/lti/scores', { signal }).then((body) => body.items),
  });
}

export function useSaveLtiPlatform() {
  const refresh = useRefreshQueries();
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: LtiPlatformInput }) =>
      id ? api.put<LtiPlatform>(platformPath(id), input) : api.post<LtiPlatform>('/api/admin/lti/platforms', input),
    onSuccess: () => refresh([ltiKeys.all]),
  });
}

/** A one-time URL for 'Registrar por URL' in the LMS (LTI Dynamic Registration). */
export function useCreateLtiRegistration() {
  return useMutation({
    mutationFn: (input: LtiRegistrationInput) => api.post<LtiRegistrationUrl>('/api/admin/lti/registrations', input),
  });
}

export function useDeleteLtiPlatform() {
  const refresh = useRefreshQueries();
  return useMutation({
    mutationFn: (id: string) => api.delete<{ ok: true }>(platformPath(id)),
    onSuccess: () => refresh([ltiKeys.all]),
  });
}

const rosterPath = (id: string) => `/api/lti/classrooms/${encodeURIComponent(id)}`;

/** The LMS courses an aula is linked to (none: no roster button). */
export function useLtiRoster(classroomId: string) {
  return useQuery({
    queryKey: [...ltiKeys.all, 'roster', classroomId],
    queryFn: ({ signal }) => api.get<{ courses: string[] }>(`${rosterPath(classroomId)}/roster`, { signal }),
  });
}

export function useSyncLtiRoster(classroomId: string) {
  const refresh = useRefreshQueries();
  return useMutation({
    mutationFn: () =>
      api.post<{ added: number; removed: number; skipped: number }>(`${rosterPath(classroomId)}/roster-sync`),
    onSuccess: () => refresh([['classrooms']]),
  });
}
