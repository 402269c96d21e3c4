/**
 * The SAT's rules a CFDI 4.0 receiver must meet, as small catalogues. Source: the SAT's catalogues of Anexo 20
 * (catCFDI_V_4, sheets c_RegimenFiscal and c_UsoCFDI: the columns «Física», «Moral» and «Régimen Fiscal
 * Receptor»), published at omawww.sat.gob.mx/tramitesyservicios/Paginas/anexo_20.htm. Only the régimenes a
 * veterinarian, a clinic, a hospital or a university may have, and only the usos that fit a course or a
 * membership, are kept; Facturapi refuses the same combinations.
 */

export type PersonKind = 'fisica' | 'moral';

/** c_RegimenFiscal: key → name and who may have it. */
export const taxSystems = {
  '601': { name: 'General de Ley Personas Morales', kinds: ['moral'] },
  '603': { name: 'Personas Morales con Fines no Lucrativos', kinds: ['moral'] },
  '605': { name: 'Sueldos y Salarios e Ingresos Asimilados a Salarios', kinds: ['fisica'] },
  '606': { name: 'Arrendamiento', kinds: ['fisica'] },
  '608': { name: 'Demás ingresos', kinds: ['fisica'] },
  '612': { name: 'Personas Físicas con Actividades Empresariales y Profesionales', kinds: ['fisica'] },
  '616': { name: 'Sin obligaciones fiscales', kinds: ['fisica'] },
  '621': { name: 'Incorporación Fiscal', kinds: ['fisica'] },
  '625': {
    name: 'Régimen de las Actividades Empresariales con ingresos a través de Plataformas Tecnológicas',
    kinds: ['fisica'],
  },
  '626': { name: 'Régimen Simplificado de Confianza', kinds: ['fisica', 'moral'] },
} as const satisfies Record<string, { name: string; kinds: readonly PersonKind[] }>;
export type TaxSystem = keyof typeof taxSystems;
export const taxSystemKeys = Object.keys(taxSystems) as [TaxSystem, ...TaxSystem[]];

/** c_UsoCFDI: key → name and the receiver's régimenes it is allowed for (column «Régimen Fiscal Receptor»). */
export const cfdiUses = {
  G01: { name: 'Adquisición de mercancías', taxSystems: ['601', '603', '606', '612', '621', '625', '626'] },
  G03: { name: 'Gastos en general', taxSystems: ['601', '603', '606', '612', '621', '625', '626'] },
  D10: { name: 'Pagos por servicios educativos (colegiaturas)', taxSystems: ['605', '606', '608', '612', '625'] },
  S01: {
    name: 'Sin efectos fiscales',
    taxSystems: ['601', '603', '605', '606', '608', '612', '616', '621', '625', '626'],
  },
} as const satisfies Record<string, { name: string; taxSystems: readonly TaxSystem[] }>;
export type CfdiUse = keyof typeof cfdiUses;
export const cfdiUseKeys = Object.keys(cfdiUses) as [CfdiUse, ...CfdiUse[]];

/** The generic RFCs: 'público en general' (the global invoice) and a foreign receiver; never a member's own. */
export const genericRfcs = ['XAXX010101000', 'XEXX010101000'] as const;

const rfcPattern = /^([A-ZÑ&]{3,4})(\d{2})(\d{2})(\d{2})([A-Z\d]{2}[A\d])$/;

/**
 * The kind of person an RFC belongs to, or null when it is not an RFC: four letters (física) or three (moral),
 * a valid date (YYMMDD) and a three-character homoclave.
 */
export function rfcKind(rfc: string): PersonKind | null {
  const match = rfcPattern.exec(rfc);
  if (!match) return null;
  const [, letters, , month, day] = match;
  const m = Number(month);
  const d = Number(day);
  if (m < 1 || m > 12 || d < 1 || d > 31) return null;
  return letters!.length === 4 ? 'fisica' : 'moral';
}

/** An RFC as the SAT writes it: upper case, no spaces or hyphens. */
export function normalizeRfc(value: string): string {
  return value.toUpperCase().replace(/[\s-]/g, '');
}

export function taxSystemFits(taxSystem: TaxSystem, kind: PersonKind): boolean {
  return (taxSystems[taxSystem].kinds as readonly PersonKind[]).includes(kind);
}

export function cfdiUseFits(use: CfdiUse, taxSystem: TaxSystem): boolean {
  return (cfdiUses[use].taxSystems as readonly TaxSystem[]).includes(taxSystem);
}

/** The SAT's cancellation motives (Anexo 20, cancellation of CFDI since 2022). */
const cancellationMotives = {
  '01': 'Comprobante emitido con errores con relación',
  '02': 'Comprobante emitido con errores sin relación',
  '03': 'No se llevó a cabo la operación',
  '04': 'Operación nominativa relacionada en una factura global',
} as const;
export type CancellationMotive = keyof typeof cancellationMotives;
export const cancellationMotiveKeys = Object.keys(cancellationMotives) as [CancellationMotive, ...CancellationMotive[]];

/** Forma de pago (c_FormaPago) by how the member paid: cash at OXXO, SPEI, a credit or a debit card. */
export const paymentForms = { oxxo: '01', spei: '03', credit_card: '04', debit_card: '28' } as const;
export type PaymentForm = (typeof paymentForms)[keyof typeof paymentForms];
