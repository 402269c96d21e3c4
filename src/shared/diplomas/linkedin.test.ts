import { describe, expect, it } from 'vitest';
import { linkedInCertificationUrl } from './linkedin.ts';

describe('the LinkedIn add-to-profile link', () => {
  it('carries the certification’s name, issuer, issue month and year, verification URL and code', () => {
    const url = new URL(
      linkedInCertificationUrl({
        name: 'Diplomado en Cirugía de Tejidos Blandos',
        organizationName: 'CxVet',
        issuedAt: '2026-03-01T03:00:00.000Z',
        certUrl: 'https://cxvet.example/certificados/ABCDEFGH2345',
        certId: 'ABCDEFGH2345',
      }),
    );
    expect(url.origin + url.pathname).toBe('https://www.linkedin.com/profile/add');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      startTask: 'CERTIFICATION_NAME',
      name: 'Diplomado en Cirugía de Tejidos Blandos',
      organizationName: 'CxVet',
      issueYear: '2026',
      issueMonth: '3',
      certUrl: 'https://cxvet.example/certificados/ABCDEFGH2345',
      certId: 'ABCDEFGH2345',
    });
  });
});
