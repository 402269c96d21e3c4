import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Statistics, statisticsQuerySchema } from '#shared/analytics/statistics.schemas.ts';
import { api, queryString } from '#web/lib/api-client.ts';

type StatisticsFilter = z.infer<typeof statisticsQuerySchema>;

export const analyticsKeys = {
  all: ['analytics'] as const,
  statistics: (filter: StatisticsFilter) => [...analyticsKeys.all, 'statistics', filter] as const,
};

const analyticsApi = {
  statistics: (filter: StatisticsFilter, signal?: AbortSignal) =>
    api.get<Statistics>(`/api/admin/statistics${queryString(filter)}`, { signal }),
};

export function useAdminStatistics(filter: StatisticsFilter) {
  return useQuery({
    queryKey: analyticsKeys.statistics(filter),
    queryFn: ({ signal }) => analyticsApi.statistics(filter, signal),
    placeholderData: keepPreviousData,
  });
}
