// @vitest-environment jsdom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ClassroomCandidate } from '#shared/classrooms/classrooms.schemas.ts';
import { renderWithApp, stubApi } from '#web/testing/render.tsx';
import { ClassroomAdminDetailPage } from './classroom-admin-detail.tsx';

const base = '/api/classroom-admin/classrooms/aula-1';
// 20 accounts the aula admits, the first one on its saved list
const accounts: ClassroomCandidate[] = Array.from({ length: 20 }, (_, index) => ({
  id: `u${index + 1}`,
  name: `Alumna ${index + 1}`,
  email: `alumna${String(index + 1).padStart(2, '0')}@uni.example.com`,
  assigned: index === 0,
}));

function serveAula() {
  return stubApi({
    [`GET ${base}`]: () => ({
      id: 'aula-1',
      title: 'Aula de Anatomía',
      organizationTitle: 'Universidad del Norte',
      organizationType: 'Universidad',
      userCount: 1,
      expiresAt: '2030-01-31T23:59:59.000Z',
    }),
    [`GET ${base}/candidates`]: ({ url }) => {
      const page = Number(url.searchParams.get('page') ?? '1');
      return { items: accounts.slice((page - 1) * 12, page * 12), total: accounts.length };
    },
    [`GET ${base}/progress`]: () => ({
      videos: [],
      rows: [],
      totals: { members: 1, notStarted: 1, inProgress: 0, finished: 0 },
      matching: 0,
      page: 1,
      pageSize: 50,
    }),
    'GET /api/lti/classrooms/aula-1/roster': () => ({ courses: [] }),
    [`PATCH ${base}/users`]: () => ({ ok: true }),
  });
}

describe('the aula administrator’s page', () => {
  it('saves the ticks and unticks made on several pages, not the whole list', async () => {
    const calls = serveAula();
    const { user } = renderWithApp(<ClassroomAdminDetailPage />, {
      path: '/administrar-aula/aula/:id',
      url: '/administrar-aula/aula/aula-1',
    });
    const table = await screen.findByRole('table', { name: 'Usuarios del aula' });
    const box = (email: string) => within(table).findByRole('checkbox', { name: `Seleccionar ${email}` });
    expect(screen.getByRole('button', { name: 'Guardar' })).toHaveProperty('disabled', true);

    await user.click(await box('alumna01@uni.example.com'));
    await user.click(await box('alumna02@uni.example.com'));
    await user.click(screen.getByRole('button', { name: 'Siguiente' }));
    await user.click(await box('alumna15@uni.example.com'));
    expect(screen.getByText('Tienes cambios sin guardar en la lista de usuarios.')).toBeTruthy();
    expect(screen.getByText('2 seleccionados')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Se guardó la lista de usuarios del aula.')).toBeTruthy();
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({
      addedUserIds: ['u2', 'u15'],
      removedUserIds: ['u1'],
    });
    expect(screen.queryByText('Tienes cambios sin guardar en la lista de usuarios.')).toBeNull();
  });

  it('forgets the unsaved ticks on Descartar cambios', async () => {
    serveAula();
    const { user } = renderWithApp(<ClassroomAdminDetailPage />, {
      path: '/administrar-aula/aula/:id',
      url: '/administrar-aula/aula/aula-1',
    });
    const table = await screen.findByRole('table', { name: 'Usuarios del aula' });
    const second = await within(table).findByRole('checkbox', { name: 'Seleccionar alumna02@uni.example.com' });
    await user.click(second);
    expect(second).toHaveProperty('checked', true);
    await user.click(screen.getByRole('button', { name: 'Descartar cambios' }));
    expect(second).toHaveProperty('checked', false);
    expect(screen.getByText('1 seleccionado')).toBeTruthy();
  });
});
