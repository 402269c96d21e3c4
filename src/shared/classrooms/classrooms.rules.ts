export const classroomAccessTypes = ['Acceso libre', 'Acceso controlado'] as const;
export type ClassroomAccessType = (typeof classroomAccessTypes)[number];

export const classroomWarningKinds = ['DIEZ_DIAS', 'TRES_DIAS'] as const;
export type ClassroomWarningKind = (typeof classroomWarningKinds)[number];
