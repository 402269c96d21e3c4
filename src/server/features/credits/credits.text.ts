import {
  creditCategoryText,
  creditCsvColumns,
  csvField,
  deliveryMethodText,
  formatHours,
} from '#shared/credits/credits.rules.ts';
import type { CreditItem } from '#shared/credits/credits.schemas.ts';

/** The lines the credit adds to its certificate: hours, category, delivery method, each body and approval number. */
export function creditLinesOf(item: Pick<CreditItem, 'hours' | 'category' | 'deliveryMethod' | 'bodies'>): string[] {
  return [
    `Educación continua: ${formatHours(item.hours)} horas · Categoría: ${creditCategoryText[item.category]} · Modalidad: ${deliveryMethodText[item.deliveryMethod]}`,
    `Aprobado por: ${item.bodies.map((body) => `${body.name}, número de aprobación ${body.approvalNumber}`).join('; ')}`,
  ];
}

/** A calendar day as the CSV and transcript print it (YYYY-MM-DD on the site's clock). */
export type DayOf = (date: Date) => string;

/** The member's CSV: one row per credited item and body (the hours count toward each body that approved it). */
export function creditsCsv(holder: { name: string; licenceNumber: string }, items: CreditItem[], dayOf: DayOf): string {
  const rows = items.flatMap((item) =>
    item.bodies.map((body) =>
      [
        holder.name,
        holder.licenceNumber,
        body.name,
        body.approvalNumber,
        item.title,
        creditCategoryText[item.category],
        deliveryMethodText[item.deliveryMethod],
        formatHours(item.hours),
        dayOf(new Date(item.startedAt)),
        dayOf(new Date(item.earnedAt)),
        item.folio ?? '',
        item.verificationCode ?? '',
      ]
        .map(csvField)
        .join(','),
    ),
  );
  // a BOM so spreadsheet programs read the accents as UTF-8
  return `\uFEFF${[creditCsvColumns.join(','), ...rows].join('\r\n')}\r\n`;
}
