export const eventStatuses = ['Activo', 'Inactivo'] as const;
export type EventStatus = (typeof eventStatuses)[number];
