import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, vi } from 'vitest';
import { ErrorModalProvider } from '#web/components/error-modal.tsx';
import { theme } from '#web/theme.ts';

// jsdom lacks what Mantine measures with; an empty media query matches every screen, as in browsers
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: query.trim() === '',
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};
Element.prototype.scrollIntoView ??= () => {};
// jsdom has <dialog> but not its methods: open and close it as browsers do (without the top layer)
HTMLDialogElement.prototype.showModal ??= function (this: HTMLDialogElement) {
  this.open = true;
};
HTMLDialogElement.prototype.close ??= function (this: HTMLDialogElement) {
  if (!this.open) return;
  this.open = false;
  this.dispatchEvent(new Event('close'));
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/**
 * Renders a web piece as the app does: Mantine, TanStack Query, the error modal and a router
 * (the piece at route `path`, opened at `url`, with `routes` to land on after navigation). Returns a user-event session too.
 */
export function renderWithApp(
  ui: ReactNode,
  options: { path?: string; url?: string; routes?: Record<string, ReactNode> } = {},
) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const path = options.path ?? '/';
  const router = createMemoryRouter(
    [
      { path, element: ui },
      ...Object.entries(options.routes ?? {}).map(([routePath, element]) => ({ path: routePath, element })),
    ],
    { initialEntries: [options.url ?? path] },
  );
  const user = userEvent.setup({ delay: null });
  const result = render(
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} env="test">
        <Notifications />
        <ErrorModalProvider>
          <RouterProvider router={router} />
        </ErrorModalProvider>
      </MantineProvider>
    </QueryClientProvider>,
  );
  return { ...result, user, router, queryClient };
}

type Answer = (request: { body: unknown; url: URL }) => unknown;

/**
 * Answers the API's fetch calls: keys are 'METHOD /path', `*` standing for one path segment; an answer
 * returns the JSON body (undefined for 204) or a Response. Any other call fails the test. Returns the calls made.
 */
export function stubApi(answers: Record<string, Answer>) {
  const routes = Object.entries(answers).map(([key, answer]) => {
    const [method, path] = key.split(' ') as [string, string];
    const pattern = new RegExp(
      `^${path
        .split('*')
        .map((part) => part.replace(/[.?+^$[\]\\(){}|-]/g, '\\$&'))
        .join('[^/]+')}$`,
    );
    return { method, pattern, answer };
  });
  const calls: { method: string; path: string; body: unknown }[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input), 'http://localhost');
      const method = init?.method ?? 'GET';
      const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ method, path: url.pathname, body });
      const route = routes.find((candidate) => candidate.method === method && candidate.pattern.test(url.pathname));
      if (!route) throw new Error(`unexpected ${method} ${url.pathname}`);
      const answer = await route.answer({ body, url });
      if (answer instanceof Response) return answer;
      return new Response(answer === undefined ? null : JSON.stringify(answer), {
        status: answer === undefined ? 204 : 200,
      });
    }),
  );
  return calls;
}

/** An API error answer as the server's error handler writes it. */
export function errorAnswer(status: number, body: { code: string; message: string; fields?: Record<string, string> }) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
