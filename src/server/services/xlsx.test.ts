import { describe, expect, it } from 'vitest';
import { buffer } from 'node:stream/consumers';
import ExcelJS from 'exceljs';
import { createSerialDates, createXlsxWriter, isFormulaLike } from './xlsx.ts';

describe('spreadsheet date serials', () => {
  it.each([
    // Mexico City has kept UTC-6 all year since 2022
    ['America/Mexico_City', '2026-11-27T03:30:00Z', 46352 + 21.5 / 24],
    ['America/Mexico_City', '2026-07-01T05:59:00Z', 46203 + (23 * 60 + 59) / 1440],
    // Madrid's summer time: UTC+2 in July (past midnight, the next day), UTC+1 in January
    ['Europe/Madrid', '2026-07-01T22:30:00Z', 46205 + 0.5 / 24],
    ['Europe/Madrid', '2026-01-01T22:30:00Z', 46023 + 23.5 / 24],
    ['UTC', '1900-03-01T00:00:00Z', 61],
  ])('in %s, %s is serial %f', (zone, iso, serial) => {
    expect(createSerialDates(zone).dateTime(new Date(iso))).toBeCloseTo(serial, 6);
  });

  it('gives a day as the whole serial of that clock', () => {
    expect(createSerialDates('America/Mexico_City').date(new Date('2026-11-27T03:30:00Z'))).toBe(46352);
    expect(createSerialDates('UTC').date(new Date('2026-11-27T03:30:00Z'))).toBe(46353);
  });
});

describe('the streaming xlsx writer', () => {
  it('writes text, day and day-and-time cells that a spreadsheet reader takes as such', async () => {
    const sheet = createXlsxWriter({
      sheetName: 'Datos & "más"',
      columns: [
        { header: 'Texto', width: 20 },
        { header: 'Día', width: 12, type: 'date' },
        { header: 'Momento', width: 18, type: 'dateTime' },
      ],
      timeZone: 'America/Mexico_City',
      modified: new Date('2026-11-26T00:00:00Z'),
    });
    const bytes = buffer(sheet.stream);
    await sheet.addRows([
      ['=1+1', new Date('2026-11-27T03:30:00Z'), new Date('2026-11-27T03:30:00Z')],
      ['<b>ñ</b>', null, '-'],
    ]);
    sheet.end();
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load((await bytes) as unknown as ArrayBuffer);
    const read = workbook.worksheets[0]!;
    expect(read.name).toBe('Datos & "más"');
    const formula = read.getRow(2).getCell(1);
    expect(formula.value).toBe('=1+1');
    expect(formula.formula).toBeUndefined();
    expect(formula.numFmt).toBe('@');
    expect(read.getRow(2).getCell(2).value).toEqual(new Date('2026-11-26T00:00:00Z'));
    expect(read.getRow(2).getCell(2).numFmt).toBe('dd/mm/yyyy');
    expect(read.getRow(2).getCell(3).value).toEqual(new Date('2026-11-26T21:30:00Z'));
    expect(read.getRow(2).getCell(3).numFmt).toBe('dd/mm/yyyy hh:mm');
    expect(read.getRow(3).values).toEqual([undefined, '<b>ñ</b>', undefined, '-']);
  });

  it('treats text starting with = + - @ or a tab as a possible formula', () => {
    expect(['=A1', '+1', '-1', '@x', '\tx'].every(isFormulaLike)).toBe(true);
    expect(['A1', ' =A1', 'ñ'].some(isFormulaLike)).toBe(false);
  });
});
