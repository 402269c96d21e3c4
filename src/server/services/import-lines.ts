import { Readable } from 'node:stream';
import { AppError } from '#shared/errors.ts';
import { messages } from '#shared/messages.ts';
import { addressOfCells, importLinesFromText, type ImportLine } from '#shared/classrooms/classrooms.rules.ts';
import type { ImportInput } from '#shared/classrooms/classrooms.schemas.ts';

/** The most lines one import reads: a bigger list is refused as too large. */
const maxImportLines = 20_000;

/** exceljs loads with the first aula spreadsheet read or written, not at every start. */
const loadExcel = async () => (await import('exceljs')).default;

/** A shared string the sheet refers to, looked up once the strings are read (they come after the sheets). */
type SharedStringRef = { sharedString: number };

const isSharedStringRef = (value: unknown): value is SharedStringRef =>
  typeof value === 'object' && value !== null && typeof (value as SharedStringRef).sharedString === 'number';

/** A cell's value as text, whatever exceljs made of it (rich text, hyperlink, formula result, number). */
function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value instanceof Date) return value.toISOString();
  const object = value as { richText?: { text?: string }[]; text?: unknown; result?: unknown };
  if (Array.isArray(object.richText)) return object.richText.map((run) => run.text ?? '').join('');
  if (object.text !== undefined) return cellText(object.text);
  if (object.result !== undefined) return cellText(object.result);
  return '';
}

/**
 * Lines of an xlsx file's first sheet: one a row, the first cell holding an address. Read as a stream that stops
 * at the line limit, so a sheet of a million rows is refused as soon as its 20,001st row is seen; only the shared
 * strings those rows use are kept.
 */
async function importLinesFromXlsx(data: Buffer): Promise<ImportLine[]> {
  const reader = new (await loadExcel()).stream.xlsx.WorkbookReader(Readable.from([data]), {
    worksheets: 'emit',
    sharedStrings: 'emit',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  // with these set, exceljs streams a sheet as it comes instead of copying it to a temporary file to wait for the
  // shared strings, and leaves a shared-string cell as a reference for us to resolve
  Object.assign(reader, {
    sharedStrings: new Proxy([], {
      get: (_target, key) => (typeof key === 'string' && /^\d+$/.test(key) ? { sharedString: Number(key) } : undefined),
    }),
    workbookRels: [],
    // the workbook part comes last in the files exceljs and Excel write
    model: { sheets: [] },
    properties: {},
  });
  const rows: unknown[][] = [];
  const wanted = new Set<number>();
  const strings = new Map<number, string>();
  let sheetRead = false;
  // worksheets come as { eventType, value }, shared strings (in 'emit' mode) as { index, text }
  type ReaderEvent = { eventType?: string; value?: unknown; index?: number; text?: unknown };
  try {
    for await (const event of reader.parse() as unknown as AsyncIterable<ReaderEvent>) {
      if (event.eventType === 'worksheet' && !sheetRead) {
        sheetRead = true;
        for await (const row of event.value as AsyncIterable<{ number: number; values: unknown }>) {
          if (row.number > maxImportLines) throw new AppError('PAYLOAD_TOO_LARGE');
          const values = Array.isArray(row.values) ? row.values.slice(1, 100) : [];
          for (const cell of values) if (isSharedStringRef(cell)) wanted.add(cell.sharedString);
          rows[row.number - 1] = values;
        }
        if (wanted.size === 0) break;
      } else if (typeof event.index === 'number') {
        if (wanted.has(event.index)) strings.set(event.index, cellText(event.text));
        if (sheetRead && strings.size === wanted.size) break;
      }
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError('FILE_FORMAT');
  }
  const lines: ImportLine[] = [];
  for (let index = 0; index < rows.length; index += 1) {
    const cells = (rows[index] ?? [])
      .map((cell) => (isSharedStringRef(cell) ? (strings.get(cell.sharedString) ?? '') : cellText(cell)).trim())
      .filter((text) => text !== '');
    lines.push({ line: index + 1, text: cells.join(', ').slice(0, 200), email: addressOfCells(cells) });
  }
  return lines;
}

/**
 * A CSV file's text: UTF-16 with its byte order mark (Excel's 'Texto Unicode'), else UTF-8 with or without one
 * (Excel's 'CSV UTF-8', Google Sheets).
 */
function decodeCsv(data: Buffer): string {
  if (data[0] === 0xff && data[1] === 0xfe)
    return data.subarray(2, data.length - (data.length % 2)).toString('utf16le');
  if (data[0] === 0xfe && data[1] === 0xff) {
    return Buffer.from(data.subarray(2, data.length - (data.length % 2)))
      .swap16()
      .toString('utf16le');
  }
  return data.toString('utf8');
}

/** The lines of pasted text, a CSV file or an xlsx file. */
export async function readImportLines(source: ImportInput): Promise<ImportLine[]> {
  let lines: ImportLine[];
  if (source.format === 'text') lines = importLinesFromText(source.text);
  else {
    const data = Buffer.from(source.dataBase64, 'base64');
    if (source.format === 'xlsx') {
      // an xlsx is a zip: anything else is refused before exceljs reads it
      if (data.subarray(0, 2).toString('latin1') !== 'PK') throw new AppError('FILE_FORMAT');
      lines = await importLinesFromXlsx(data);
    } else {
      const text = decodeCsv(data);
      // refused as in pasted text: PostgreSQL cannot compare a NUL byte
      if (text.includes('\u0000')) throw new AppError('VALIDATION', { fields: { dataBase64: messages.nulCharacter } });
      lines = importLinesFromText(text);
    }
  }
  if (lines.length > maxImportLines) throw new AppError('PAYLOAD_TOO_LARGE');
  return lines;
}
