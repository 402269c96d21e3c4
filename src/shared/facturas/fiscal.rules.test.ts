import { describe, expect, it } from 'vitest';
import { cfdiUseFits, rfcKind, taxSystemFits } from './fiscal.rules.ts';
import { fiscalDataSchema } from './fiscal.schemas.ts';

describe('the SAT rules of a receiver', () => {
  it('tells persona física (13) from moral (12), and refuses what is no RFC', () => {
    expect(rfcKind('GODE561231GR8')).toBe('fisica');
    expect(rfcKind('HVE010101AB1')).toBe('moral');
    expect(rfcKind('ÑAND&01231GR8')).toBeNull();
    expect(rfcKind('AÑO010101AB1')).toBe('moral');
    expect(rfcKind('GODE561331GR8')).toBeNull(); // month 13
    expect(rfcKind('GODE560100GR8')).toBeNull(); // day 00
    expect(rfcKind('GODE561231GR')).toBeNull();
    expect(rfcKind('GODE561231GR8X')).toBeNull();
    expect(rfcKind('gode561231gr8')).toBeNull();
  });

  it('fits régimenes to the kind of RFC and usos to the régimen (c_RegimenFiscal, c_UsoCFDI)', () => {
    expect(taxSystemFits('612', 'fisica')).toBe(true);
    expect(taxSystemFits('612', 'moral')).toBe(false);
    expect(taxSystemFits('601', 'moral')).toBe(true);
    expect(taxSystemFits('626', 'moral')).toBe(true);
    expect(taxSystemFits('626', 'fisica')).toBe(true);
    expect(cfdiUseFits('G03', '612')).toBe(true);
    expect(cfdiUseFits('G03', '605')).toBe(false);
    expect(cfdiUseFits('D10', '605')).toBe(true);
    expect(cfdiUseFits('D10', '601')).toBe(false);
    expect(cfdiUseFits('S01', '616')).toBe(true);
  });

  it('normalizes the RFC as the SAT writes it and trims the rest', () => {
    const parsed = fiscalDataSchema.parse({
      rfc: ' hve-010101-ab1 ',
      legalName: ' HOSPITAL VETERINARIO DEL CENTRO ',
      taxSystem: '601',
      cfdiUse: 'G01',
      zip: ' 44100 ',
    });
    expect(parsed).toEqual({
      rfc: 'HVE010101AB1',
      legalName: 'HOSPITAL VETERINARIO DEL CENTRO',
      taxSystem: '601',
      cfdiUse: 'G01',
      zip: '44100',
    });
  });

  it('refuses an unknown régimen or uso, and an overlong RFC, each under its field', () => {
    const result = fiscalDataSchema.safeParse({
      rfc: 'A'.repeat(500),
      legalName: 'X',
      taxSystem: '999',
      cfdiUse: 'CP01',
      zip: '12345',
    });
    expect(result.success).toBe(false);
    const fields = Object.fromEntries(result.error!.issues.map((issue) => [issue.path.join('.'), issue.message]));
    expect(fields).toMatchObject({
      rfc: 'El RFC tiene 12 caracteres (persona moral) o 13 (persona física).',
      taxSystem: 'Elige un régimen fiscal.',
      cfdiUse: 'Elige un uso de CFDI.',
    });
  });
});
