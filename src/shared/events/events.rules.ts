export const eventStatuses = ['Activo', 'Inactivo'] as const;
