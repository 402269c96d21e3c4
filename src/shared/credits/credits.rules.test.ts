import { describe, expect, it } from 'vitest';
import { csvField, formatHours, parseHours, sumHours } from './credits.rules.ts';
import { creditOfferInputSchema, evaluationInputSchema } from './credits.schemas.ts';

describe('hours as the console writes them', () => {
  it.each([
    ['12', 12],
    ['1.5', 1.5],
    ['1,5', 1.5],
    [' 40 ', 40],
    ['0.5', 0.5],
    ['0', null],
    ['0.0', null],
    ['-1', null],
    ['1.25', null],
    ['1.', null],
    ['doce', null],
    ['', null],
    ['1000', null],
  ])('reads %j as %j', (text, hours) => {
    expect(parseHours(text)).toBe(hours);
  });

  it('prints whole hours without a decimal and sums tenths exactly', () => {
    expect(formatHours(2)).toBe('2');
    expect(formatHours(2.5)).toBe('2.5');
    expect(sumHours([0.1, 0.2, 0.3])).toBe(0.6);
    expect(sumHours([])).toBe(0);
  });
});

describe('a CSV field', () => {
  it.each([
    ['Ana', 'Ana'],
    ['En línea, a su propio ritmo', '"En línea, a su propio ritmo"'],
    ['Luis "Chato"', '"Luis ""Chato"""'],
    ['=1+1', "'=1+1"],
    ['-20', "'-20"],
  ])('writes %j as %j', (value, written) => {
    expect(csvField(value)).toBe(written);
  });
});

describe('the shared schemas', () => {
  const offer = {
    hours: '3',
    category: 'medical',
    deliveryMethod: 'selfPacedOnline',
    bodies: [{ name: 'CONCERVET', approvalNumber: 'A-1' }],
    validFrom: '2026-01-01',
    validUntil: '2026-01-01',
  };

  it('takes a validity of one day and refuses one that ends before it starts, or an impossible date', () => {
    expect(creditOfferInputSchema.safeParse(offer).success).toBe(true);
    const reversed = creditOfferInputSchema.safeParse({ ...offer, validUntil: '2025-12-31' });
    expect(reversed.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['validUntil']);
    expect(creditOfferInputSchema.safeParse({ ...offer, validFrom: '2026-02-30x' }).success).toBe(false);
  });

  it('names the body without a name and the body without a number, each under its field', () => {
    const parsed = creditOfferInputSchema.safeParse({
      ...offer,
      bodies: [
        { name: '', approvalNumber: 'B-2' },
        { name: 'AAVSB RACE', approvalNumber: ' ' },
      ],
    });
    expect(parsed.error?.issues.map((issue) => issue.path.join('.'))).toEqual([
      'bodies.0.name',
      'bodies.1.approvalNumber',
    ]);
  });

  it('wants every Likert statement answered from 1 to 5', () => {
    expect(evaluationInputSchema.safeParse({ answers: [1, 2, 3, 4, 5] }).success).toBe(true);
    expect(evaluationInputSchema.safeParse({ answers: [1, 2, 3, 4] }).success).toBe(false);
    expect(evaluationInputSchema.safeParse({ answers: [0, 2, 3, 4, 5] }).success).toBe(false);
    expect(evaluationInputSchema.safeParse({ answers: [1.5, 2, 3, 4, 5] }).success).toBe(false);
  });
});
