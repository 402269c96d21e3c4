// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { useEffect, useRef, useState } from 'react';
import { MemoryRouter, Route, Routes, useNavigate } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { focusPageHeading, useRouteAnnouncer } from './route-announcer.ts';

let navigateTo: (path: string) => void = () => {};
let finishLoading: () => void = () => {};

/** A page that shows a loading heading first and then replaces it with another element of the same text. */
function LoadingPage() {
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    finishLoading = () => setLoaded(true);
  }, []);
  return loaded ? <h1 key="loaded">Catálogo de cirugías</h1> : <h1 key="loading">Catálogo de cirugías</h1>;
}

function Shell() {
  const main = useRef<HTMLElement>(null);
  const navigate = useNavigate();
  useEffect(() => {
    navigateTo = (path) => void navigate(path);
  }, [navigate]);
  useRouteAnnouncer(main);
  return (
    <main id="contenido" ref={main}>
      <Routes>
        <Route path="/" element={<h1>Inicio</h1>} />
        <Route path="/procedimientos" element={<LoadingPage />} />
      </Routes>
    </main>
  );
}

describe('focus after a route change', () => {
  afterEach(cleanup);

  it('moves to the new page’s heading and follows it when the page replaces it while loading', async () => {
    render(
      <MemoryRouter>
        <Shell />
      </MemoryRouter>,
    );
    expect(document.title).toBe('Inicio · CxVet');
    act(() => navigateTo('/procedimientos'));
    const first = await screen.findByRole('heading', { name: 'Catálogo de cirugías' });
    await waitFor(() => expect(document.activeElement).toBe(first));

    act(() => finishLoading());
    const second = screen.getByRole('heading', { name: 'Catálogo de cirugías' });
    expect(second).not.toBe(first);
    await waitFor(() => expect(document.activeElement).toBe(second));
  });

  it('leaves focus alone when the person has moved it elsewhere before the heading is replaced', async () => {
    render(
      <MemoryRouter>
        <Shell />
        <button type="button">Otro control</button>
      </MemoryRouter>,
    );
    act(() => navigateTo('/procedimientos'));
    const first = await screen.findByRole('heading', { name: 'Catálogo de cirugías' });
    await waitFor(() => expect(document.activeElement).toBe(first));
    const other = screen.getByRole('button', { name: 'Otro control' });
    act(() => other.focus());
    act(() => finishLoading());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(document.activeElement).toBe(other);
  });

  it('a closing menu hands the focus to the page’s heading', () => {
    render(
      <MemoryRouter>
        <Shell />
      </MemoryRouter>,
    );
    focusPageHeading();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Inicio' }));
  });
});
