export const analyticsCategories = ['VIDEOS', 'FASCICULOS', 'DIPLOMADO_PREVIEW_PAGE'] as const;
export type AnalyticsCategory = (typeof analyticsCategories)[number];
