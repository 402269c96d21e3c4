import { describe, expect, it } from 'vitest';
import { canEnterClassroom, dueWarningKinds, importLinesFromText, timeLeftText } from './classrooms.rules.ts';

const now = new Date('2030-01-01T00:00:00Z');
const hour = 3_600_000;
const day = 24 * hour;
const at = (ms: number) => new Date(now.getTime() + ms);

describe('canEnterClassroom', () => {
  const aula = { isActive: true, accessType: 'Acceso controlado' as const, adminUserId: 'staff', expiresAt: at(day) };
  const viewer = (id: string, extra: { isAdmin?: boolean; isMember?: boolean } = {}) => ({
    id,
    isAdmin: false,
    isMember: false,
    ...extra,
  });
  it.each([
    ['a guest', null, aula, false],
    ['an outsider of a controlled aula', viewer('u'), aula, false],
    ['a member', viewer('u', { isMember: true }), aula, true],
    ['its administrator', viewer('staff'), aula, true],
    ['an Admin', viewer('a', { isAdmin: true }), aula, true],
    ['anyone signed in, when libre', viewer('u'), { ...aula, accessType: 'Acceso libre' as const }, true],
    ['a member of an inactive aula', viewer('u', { isMember: true }), { ...aula, isActive: false }, false],
    ['an Admin of an expired aula', viewer('a', { isAdmin: true }), { ...aula, expiresAt: now }, false],
    [
      'anyone of an expired libre aula',
      viewer('u'),
      { ...aula, accessType: 'Acceso libre' as const, expiresAt: at(-1) },
      false,
    ],
  ])('%s: %s', (_name, who, classroom, expected) => {
    expect(canEnterClassroom(who, classroom, now)).toBe(expected);
  });
});

describe('expiry warnings', () => {
  it.each([
    [11 * day, []],
    [10 * day, []],
    [10 * day - 1, ['DIEZ_DIAS']],
    [3 * day, ['DIEZ_DIAS']],
    [3 * day - 1, ['DIEZ_DIAS', 'TRES_DIAS']],
    [1, ['DIEZ_DIAS', 'TRES_DIAS']],
    [0, []],
    [-day, []],
  ])('%d ms before expiry: %j are due', (left, kinds) => {
    expect(dueWarningKinds(at(left), now)).toEqual(kinds);
  });

  it.each([
    [9 * day + 1, '10 días'],
    [4 * day, '4 días'],
    [3 * day, '3 días'],
    [3 * day - 1, '72 horas'],
    [2 * hour + 1, '3 horas'],
    [2 * hour, '2 horas'],
    [hour + 1, '2 horas'],
    [hour, '1 hora'],
    [59 * 60_000, '1 hora'],
    [1, '1 hora'],
  ])('%d ms left reads "%s"', (left, text) => {
    expect(timeLeftText(at(left), now)).toBe(text);
  });
});

describe('importLinesFromText', () => {
  it('finds the address of each line, in any column, lower-cased; blanks and lines without one stay as lines', () => {
    const text =
      '\uFEFFNombre;Correo\r\nAna;ANA@Uni.MX\r\n\r\n"Luis","<luis@uni.mx>"\r\nsin correo\nmailto:eva@uni.mx\n';
    expect(importLinesFromText(text)).toEqual([
      { line: 1, text: 'Nombre, Correo', email: null },
      { line: 2, text: 'Ana, ANA@Uni.MX', email: 'ana@uni.mx' },
      { line: 3, text: '', email: null },
      { line: 4, text: 'Luis, <luis@uni.mx>', email: 'luis@uni.mx' },
      { line: 5, text: 'sin correo', email: null },
      { line: 6, text: 'mailto:eva@uni.mx', email: 'eva@uni.mx' },
    ]);
  });
});
