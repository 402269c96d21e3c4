import { PassThrough, type Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { createDeflateRaw, type DeflateRaw } from 'node:zlib';
import { Zip, ZipPassThrough } from 'fflate';
import { drainedOrClosed } from '#server/services/drained.ts';
import { zoneOffsetAt } from '#shared/time-zone.ts';

/** text: shown as written; date: a day; dateTime: a day and a time, both in the writer's time zone. */
export type XlsxColumn = { header: string; width: number; type?: 'text' | 'date' | 'dateTime' };
/** null leaves the cell empty. */
export type XlsxValue = string | Date | null;

const maxBufferedBytes = 4 * 1024 * 1024;

/** A spreadsheet app must read =, +, - or @ at the start as text, never as a formula. */
export function isFormulaLike(text: string): boolean {
  return /^[=+\-@\t\r]/.test(text);
}

const xmlHeader = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const mainNs = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const relNs = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

// cell styles: 0 general, 1 Text ('@', formula-like text shown as written), 2 a day, 3 a day and time
const textStyle = 1;
const dateStyle = 2;
const dateTimeStyle = 3;
const styles = `${xmlHeader}<styleSheet xmlns="${mainNs}"><numFmts count="2"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/><numFmt numFmtId="165" formatCode="dd/mm/yyyy hh:mm"/></numFmts><fonts count="1"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

/** The fixed parts of a one-sheet workbook: content types, relationships, the workbook and its cell styles. */
function packageParts(sheetName: string): [name: string, xml: string][] {
  return [
    [
      '[Content_Types].xml',
      `${xmlHeader}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`,
    ],
    [
      '_rels/.rels',
      `${xmlHeader}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${relNs}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ],
    [
      'xl/workbook.xml',
      `${xmlHeader}<workbook xmlns="${mainNs}" xmlns:r="${relNs}"><sheets><sheet name="${escapeXml(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ],
    [
      'xl/_rels/workbook.xml.rels',
      `${xmlHeader}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${relNs}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${relNs}/styles" Target="styles.xml"/></Relationships>`,
    ],
    ['xl/styles.xml', styles],
  ];
}

// characters XML 1.0 cannot hold at all (C0 controls other than tab and line breaks, lone surrogates, U+FFFE/FFFF)
const notXml =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const escapeXml = (text: string) => text.replace(notXml, '').replace(/[&<>"]/g, (char) => escapes[char]!);

/**
 * A zip entry compressed by Node's zlib (on the thread pool) rather than fflate's JavaScript deflate, which took
 * about 2 s of this thread for 100,000 rows. fflate's pass-through counts the CRC and size of what is pushed; this
 * only swaps the bytes it hands on for their deflated form (method 8).
 */
class NativeDeflateEntry extends ZipPassThrough {
  readonly deflater: DeflateRaw = createDeflateRaw({ level: 6 });
  constructor(filename: string) {
    super(filename);
    this.compression = 8;
    this.deflater.on('data', (chunk: Buffer<ArrayBuffer>) => this.ondata(null, chunk, false));
    this.deflater.on('end', () => this.ondata(null, new Uint8Array(0), true));
    // the zip hands the error to its callback, which ends the response with it
    this.deflater.on('error', (error) => this.ondata(Object.assign(error, { code: 0 }), new Uint8Array(0), true));
  }
  protected override process(chunk: Uint8Array, final: boolean): void {
    this.deflater.write(chunk);
    if (final) this.deflater.end();
  }
}

const msPerDay = 86_400_000;
const msPerHour = 3_600_000;
// day 0 of a spreadsheet's 1900 date system, as every reader counts it for dates after February 1900
const serialEpoch = Date.UTC(1899, 11, 30);

/**
 * Spreadsheet date serials for instants as a clock in `timeZone` shows them. A zone's offset changes at most a few
 * times a year, so it is worked out once per hour of time and remembered.
 */
export function createSerialDates(timeZone: string) {
  const offsets = new Map<number, number>();
  function offsetAt(instant: number): number {
    const hour = Math.floor(instant / msPerHour);
    let offset = offsets.get(hour);
    if (offset === undefined) {
      offset = zoneOffsetAt(hour * msPerHour, timeZone);
      if (offsets.size > 10_000) offsets.clear();
      offsets.set(hour, offset);
    }
    return offset;
  }
  return {
    /** Days and fraction of a day since the spreadsheet epoch, on the zone's clock. */
    dateTime(date: Date): number {
      const instant = date.getTime();
      return (instant + offsetAt(instant) - serialEpoch) / msPerDay;
    },
    /** The zone's calendar day, as a whole serial. */
    date(date: Date): number {
      return Math.floor(this.dateTime(date));
    },
  };
}

function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/**
 * One sheet streamed row by row into a zip: nothing holds the whole workbook, so 100,000 rows cost what one batch
 * costs. A spreadsheet library would keep a model of every row and cell (about 200 MB at 100,000 users).
 */
export function createXlsxWriter(options: {
  sheetName: string;
  columns: readonly XlsxColumn[];
  timeZone: string;
  modified: Date;
}) {
  const { columns } = options;
  const output = new PassThrough();
  const encoder = new TextEncoder();
  const serials = createSerialDates(options.timeZone);
  const letters = columns.map((_, index) => columnName(index));
  const zip = new Zip((error, chunk, final) => {
    if (error) return void output.destroy(error);
    if (output.destroyed) return;
    output.write(chunk);
    if (final) output.end();
  });
  // the small fixed parts go first and whole; the zip then streams the sheet's entry as it is written
  for (const [name, xml] of packageParts(options.sheetName)) {
    const part = new ZipPassThrough(name);
    part.mtime = options.modified;
    zip.add(part);
    part.push(encoder.encode(xml), true);
  }
  const sheet = new NativeDeflateEntry('xl/worksheets/sheet1.xml');
  sheet.mtime = options.modified;
  zip.add(sheet);
  let rowNumber = 0;

  function cellXml(reference: string, value: XlsxValue, column: XlsxColumn): string {
    if (value === null) return '';
    if (value instanceof Date) {
      const day = column.type === 'date';
      return `<c r="${reference}" s="${day ? dateStyle : dateTimeStyle}"><v>${
        day ? serials.date(value) : serials.dateTime(value)
      }</v></c>`;
    }
    const style = isFormulaLike(value) ? ` s="${textStyle}"` : '';
    const space = value !== value.trim() ? ' xml:space="preserve"' : '';
    return `<c r="${reference}"${style} t="inlineStr"><is><t${space}>${escapeXml(value)}</t></is></c>`;
  }

  function rowXml(values: readonly XlsxValue[]): string {
    rowNumber += 1;
    let xml = `<row r="${rowNumber}">`;
    values.forEach((value, index) => {
      xml += cellXml(`${letters[index]}${rowNumber}`, value, columns[index]!);
    });
    return `${xml}</row>`;
  }

  /** Waits while the reader is slower than the writer, so unsent bytes never pile up in memory. */
  async function drained(): Promise<void> {
    // rows not yet compressed wait too: the deflater runs behind this thread
    if (sheet.deflater.writableLength >= maxBufferedBytes && !output.destroyed) {
      await new Promise((resolve) => sheet.deflater.once('drain', resolve));
    }
    if (output.writableLength < maxBufferedBytes || output.destroyed) return;
    await drainedOrClosed(output);
  }

  const widths = columns
    .map((column, index) => `<col min="${index + 1}" max="${index + 1}" width="${column.width}" customWidth="1"/>`)
    .join('');
  sheet.push(
    encoder.encode(
      `${xmlHeader}<worksheet xmlns="${mainNs}"><cols>${widths}</cols><sheetData>${rowXml(columns.map((column) => column.header))}`,
    ),
  );

  return {
    stream: output as Readable,
    /** Whether the reader went away (the download was cancelled): stop writing. */
    get closed(): boolean {
      return output.destroyed;
    },
    /** Appends rows, then waits while the reader is behind. */
    async addRows(rows: readonly (readonly XlsxValue[])[]): Promise<void> {
      if (output.destroyed) return;
      let xml = '';
      for (const row of rows) xml += rowXml(row);
      sheet.push(encoder.encode(xml));
      await drained();
    },
    end(): void {
      sheet.push(encoder.encode('</sheetData></worksheet>'), true);
      zip.end();
    },
    fail(error: Error): void {
      output.destroy(error);
    },
  };
}

/** A spreadsheet download that no shared cache keeps. */
export function sendXlsx(reply: FastifyReply, file: { fileName: string; stream: Readable }) {
  return reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('cache-control', 'private, no-store')
    .send(file.stream);
}
