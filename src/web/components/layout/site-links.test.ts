import { describe, expect, it } from 'vitest';
import type { CurrentUser } from '#shared/accounts/accounts.schemas.ts';
import { accountLinks, mainLinks } from './site-links.ts';

const base: CurrentUser = {
  id: 'u1',
  name: 'Ana',
  email: 'ana@example.com',
  type: 'Gratis',
  paymentStatus: 'BIEN',
  annualPlan: false,
  paymentDay: null,
  terminationDate: null,
  subscriptionId: null,
  country: 'México',
  city: 'Puebla',
  phoneNumber: '+522221234567',
  hasPremiumAccess: false,
  isClassroomAdmin: false,
  isDiplomaAdmin: false,
};

const labels = (links: { label: string }[]) => links.map((link) => link.label);
const publicLabels = ['Inicio', 'Procedimientos', 'FAQ', 'Eventos', 'Nosotros', 'Contacto'];

describe('header links', () => {
  it('a guest sees the public links, Registro and Iniciar sesión', () => {
    expect(labels(mainLinks(null))).toEqual(publicLabels);
    expect(labels(accountLinks(null))).toEqual(['Registro', 'Iniciar sesión']);
  });

  it('a Basic member sees Aulas Virtuales but not Cursos y diplomados', () => {
    expect(labels(mainLinks(base))).toEqual([...publicLabels, 'Aulas Virtuales']);
    expect(labels(accountLinks(base))).toEqual(['Mis favoritos', 'Mi perfil']);
  });

  it('a member with Premium access sees Cursos y diplomados', () => {
    const premium = { ...base, type: 'Legacy' as const, hasPremiumAccess: true };
    expect(labels(mainLinks(premium))).toContain('Cursos y diplomados');
  });

  it('classroom and diploma administrators see their administer links', () => {
    const both = { ...base, isClassroomAdmin: true, isDiplomaAdmin: true };
    expect(labels(mainLinks(both))).toEqual(expect.arrayContaining(['Administrar aula', 'Administrar diplomado']));
  });

  it('an Admin sees Administrador and Fotos landing', () => {
    const admin = { ...base, type: 'Admin' as const, hasPremiumAccess: true };
    expect(labels(accountLinks(admin))).toEqual(['Administrador', 'Fotos landing', 'Mis favoritos', 'Mi perfil']);
    expect(labels(mainLinks(admin))).toContain('Cursos y diplomados');
  });
});
