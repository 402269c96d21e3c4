import dayjs from 'dayjs';
import 'dayjs/locale/es';

/** A date as the site shows it: 5 de marzo de 2026. */
export function longSpanishDate(value: string): string {
  return dayjs(value).locale('es').format('D [de] MMMM [de] YYYY');
}
