import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { redirect, type Params, type RouteObject } from 'react-router';
import { loadCurrentUser } from '#web/features/accounts/current-user.api.ts';
import { loginReturningTo, type Guard } from '#web/features/accounts/guards.ts';
import { paths } from '#web/paths.ts';

/** A screen loaded on demand, so a guest's first page carries no member or admin code. */
export const screen = (path: string, load: () => Promise<ComponentType>): RouteObject => ({
  path,
  lazy: { Component: load },
});

/**
 * Routes that only open for whom `guard` lets through; the others are redirected where it says. `alongside` loads,
 * beside the check, what the routes' frame shows from its first paint.
 */
export const guardedRoute = (
  queryClient: QueryClient,
  guard: Guard,
  children: RouteObject[],
  alongside?: () => Promise<unknown>,
): RouteObject => ({
  loader: async ({ request }) => {
    const [user] = await Promise.all([loadCurrentUser(queryClient), alongside?.()]);
    const target = guard(user);
    if (!target) return null;
    // a guest signs in and comes back to the page they opened
    const url = new URL(request.url);
    throw redirect(target === paths.login ? loginReturningTo(url.pathname + url.search) : target);
  },
  children,
});

/**
 * A guarded screen whose data loads beside its code, as the guest pages' do: the page renders once, complete,
 * instead of a placeholder per query that the answer then moves. Nothing is asked for whom `guard` turns away.
 */
export const withData = (
  queryClient: QueryClient,
  guard: Guard,
  route: RouteObject,
  load: (params: Params) => Promise<unknown>,
): RouteObject => ({
  ...route,
  loader: async ({ params }) => {
    if (guard(await loadCurrentUser(queryClient)) === null) await load(params);
    return null;
  },
});
