import { describe, expect, it } from 'vitest';
import { countOf, emailBreakParts } from './text.ts';

describe('countOf', () => {
  it.each([
    [0, '0 usuarios'],
    [1, '1 usuario'],
    [2, '2 usuarios'],
    [21, '21 usuarios'],
  ])('%i reads %s', (count, text) => {
    expect(countOf(count, 'usuario', 'usuarios')).toBe(text);
  });
});

describe('emailBreakParts', () => {
  it('breaks an address after the @ and before each dot only', () => {
    expect(emailBreakParts('premium@demo.cxvet.com')).toEqual(['premium@', 'demo', '.cxvet', '.com']);
  });

  it('keeps a name with dots whole up to each dot', () => {
    expect(emailBreakParts('ana.perez@uni.mx').join('')).toBe('ana.perez@uni.mx');
  });
});
