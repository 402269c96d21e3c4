import { messages } from '#shared/messages.ts';

/** Continuing-education credit: what an accrediting body approves on a diploma, and what a member earns. */

/** The category an accrediting body files the hours under. */
export const creditCategories = ['medical', 'surgical', 'clinicalNonMedical', 'nonClinical'] as const;
export type CreditCategory = (typeof creditCategories)[number];

export const creditCategoryText: Record<CreditCategory, string> = {
  medical: 'Médica',
  surgical: 'Quirúrgica',
  clinicalNonMedical: 'Clínica no médica',
  nonClinical: 'No clínica',
};

/** How the programme is delivered, as the certificate states it. */
export const deliveryMethods = ['selfPacedOnline'] as const;
export type DeliveryMethod = (typeof deliveryMethods)[number];

export const deliveryMethodText: Record<DeliveryMethod, string> = {
  selfPacedOnline: 'En línea, a su propio ritmo',
};

/** Bodies the console suggests; any other name can be typed. */
export const knownBodies = ['AAVSB RACE', 'CONCERVET', 'Colegio de Médicos Veterinarios de Costa Rica'] as const;

/** The course evaluation: Likert statements answered 1 (totalmente en desacuerdo) to 5 (totalmente de acuerdo). */
export const evaluationStatements = [
  'Se cumplieron los objetivos de aprendizaje del programa.',
  'El contenido es útil para mi práctica profesional.',
  'Los videos y materiales tienen la calidad adecuada.',
  'Los exámenes evaluaron lo que se enseñó.',
  'El programa estuvo libre de sesgo comercial.',
] as const;

/**
 * A procedure's evaluation (decision 049): the same scale and number of answers; a procedure has no exams, so the
 * fourth statement asks about the technique instead.
 */
const procedureEvaluationStatements = [
  evaluationStatements[0],
  evaluationStatements[1],
  evaluationStatements[2],
  'La técnica se explicó paso a paso con claridad.',
  evaluationStatements[4],
] as const satisfies { length: (typeof evaluationStatements)['length'] };

export const evaluationStatementsOf = (kind: 'diploma' | 'procedure') =>
  kind === 'diploma' ? evaluationStatements : procedureEvaluationStatements;

export const likertText = [
  'Totalmente en desacuerdo',
  'En desacuerdo',
  'Ni de acuerdo ni en desacuerdo',
  'De acuerdo',
  'Totalmente de acuerdo',
] as const;

/** Provider records (roster, attendance proof, evaluations) are kept this long after the credit, names included. */
export const creditRecordYears = 4;

/** Hours as the form writes them: a positive number with at most one decimal ('1.5' or '1,5'). */
const hoursPattern = /^\d{1,3}([.,]\d)?$/;

export function parseHours(text: string): number | null {
  const trimmed = text.trim();
  if (!hoursPattern.test(trimmed)) return null;
  const value = Number(trimmed.replace(',', '.'));
  return value > 0 ? value : null;
}

/** Hours shown in Spanish: '1.5' stays, '2.0' is '2'. */
export function formatHours(hours: number): string {
  return Number.isInteger(hours) ? String(hours) : hours.toFixed(1);
}

/** Sums hours without binary fractions piling up (every figure has at most one decimal). */
export function sumHours(values: number[]): number {
  return values.reduce((total, value) => total + Math.round(value * 10), 0) / 10;
}

/** The columns of the member's CSV, in this order. */
export const creditCsvColumns = [
  'nombre',
  'cedula_profesional',
  'organismo',
  'numero_aprobacion',
  'titulo',
  'categoria',
  'modalidad',
  'horas',
  'fecha_inicio',
  'fecha_fin',
  'folio',
  'codigo_verificacion',
] as const;

/** One CSV field: quoted when it holds a separator, a quote or a line break; a leading formula sign is neutralised. */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** The credit forms' messages, here rather than in the schemas so the course evaluation shows them without zod. */
export const creditMessages = {
  hours: 'Escribe las horas como un número positivo con un decimal como máximo (por ejemplo, 1.5).',
  bodyName: 'Escribe el nombre del organismo.',
  approvalNumber: 'Escribe el número de aprobación que dio el organismo.',
  bodies: 'Agrega al menos un organismo acreditador.',
  date: 'Escribe una fecha válida.',
  validity: 'La vigencia no puede terminar antes de empezar.',
  licence: 'Escribe la cédula con letras, números o guiones (máximo 30 caracteres).',
  answers: 'Responde todas las afirmaciones.',
  reason: messages.revocationReason,
} as const;
