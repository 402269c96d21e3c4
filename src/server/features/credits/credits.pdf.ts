import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFPage } from 'pdf-lib';
import { embedFace, type Face } from '#server/features/diplomas/certificates.pdf.ts';
import { creditCategoryText, deliveryMethodText, formatHours } from '#shared/credits/credits.rules.ts';
import type { CreditItem } from '#shared/credits/credits.schemas.ts';
import type { DayOf } from './credits.text.ts';

export type TranscriptContent = {
  year: number;
  holderName: string;
  licenceNumber: string;
  items: CreditItem[];
  byBody: { body: string; hours: number }[];
  totalHours: number;
  issuedOn: string;
  dayOf: DayOf;
  verificationUrlOf: (code: string) => string;
};

const page = { width: 612, height: 792, margin: 54 } as const;
const ink = rgb(0.1, 0.1, 0.12);
const muted = rgb(0.33, 0.33, 0.38);

/** Lines of at most `width` points, cut at spaces. */
function wrap(face: Face, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const next = line ? `${line} ${word}` : word;
    if (line && face.widthOf(next, size) > width) {
      lines.push(line);
      line = word;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** The yearly transcript: the member, the hours per body, then each credited item with its proof. */
export async function renderTranscriptPdf(content: TranscriptContent): Promise<Uint8Array> {
  const heading = `Constancia anual de educación continua ${content.year}`;
  const blocks = content.items.map((item) => ({
    title: item.title,
    lines: [
      `${formatHours(item.hours)} horas · ${creditCategoryText[item.category]} · ${deliveryMethodText[item.deliveryMethod]}`,
      `Del ${content.dayOf(new Date(item.startedAt))} al ${content.dayOf(new Date(item.earnedAt))}${item.folio ? ` · Folio ${item.folio}` : ''}`,
      `Aprobado por: ${item.bodies.map((body) => `${body.name} (${body.approvalNumber})`).join('; ')}`,
      `Prueba: video visto ${item.watchedPercent} %${item.exams.length ? ` · exámenes ${item.exams.map((exam) => `${exam.scorePercent} %`).join(', ')}` : ''} · evaluación enviada el ${content.dayOf(new Date(item.evaluationSentAt))}`,
      ...(item.verificationCode ? [`Verificación: ${content.verificationUrlOf(item.verificationCode)}`] : []),
    ],
  }));
  const header = [
    `Nombre: ${content.holderName}`,
    `Cédula profesional: ${content.licenceNumber || 'sin registrar'}`,
    `Emitida el ${content.issuedOn} por CxVet, proveedor de educación continua`,
  ];
  const totals = [
    `Total del año: ${formatHours(content.totalHours)} horas`,
    ...content.byBody.map((entry) => `${entry.body}: ${formatHours(entry.hours)} horas`),
  ];
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(heading);
  doc.setAuthor('CxVet');
  doc.setProducer('CxVet');
  const regular = await embedFace(doc, 'regular', [
    ...header,
    ...totals.slice(1),
    ...blocks.flatMap((block) => block.lines),
    'Sin créditos en este año.',
  ]);
  const bold = await embedFace(doc, 'bold', [heading, totals[0]!, ...blocks.map((block) => block.title), 'Créditos']);
  const width = page.width - 2 * page.margin;
  let current: PDFPage = doc.addPage([page.width, page.height]);
  let y = page.height - page.margin;
  const write = (face: Face, text: string, size: number, color = ink) => {
    for (const line of wrap(face, text, size, width)) {
      if (y < page.margin + size) {
        current = doc.addPage([page.width, page.height]);
        y = page.height - page.margin;
      }
      y -= size + 4;
      face.draw(current, line, { x: page.margin, y, size, color });
    }
  };
  write(bold, heading, 18);
  y -= 8;
  for (const line of header) write(regular, line, 11);
  y -= 10;
  write(bold, totals[0]!, 13);
  for (const line of totals.slice(1)) write(regular, line, 11);
  y -= 10;
  write(bold, 'Créditos', 14);
  if (blocks.length === 0) write(regular, 'Sin créditos en este año.', 11, muted);
  for (const block of blocks) {
    y -= 8;
    write(bold, block.title, 12);
    for (const line of block.lines) write(regular, line, 10, muted);
  }
  return doc.save();
}
