import dayjs from 'dayjs';

const number = new Intl.NumberFormat('es-MX', { maximumFractionDigits: 1 });

/** 5 223 703 → "5 MB"; 812 → "812 B". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${number.format(bytes / 1024)} KB`;
  if (bytes < 1024 ** 3) return `${number.format(bytes / 1024 ** 2)} MB`;
  return `${number.format(bytes / 1024 ** 3)} GB`;
}

export function formatWhen(iso: string): string {
  return dayjs(iso).format('D [de] MMMM [de] YYYY, HH:mm');
}

export const triggerLabels: Record<string, string> = {
  programado: 'Programado',
  consola: 'Desde la consola',
  comando: 'Con npm run backup',
};
export const scheduleLabels = {
  off: 'sin respaldo automático',
  hourly: 'cada hora',
  daily: 'diario',
  weekly: 'semanal',
} as const;
