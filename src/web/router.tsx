import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter, matchPath, redirect, type RouteObject } from 'react-router';
import { AppLayout } from '#web/components/layout/app-layout.tsx';
import { StartingPage } from '#web/components/layout/starting-page.tsx';
import { RouteError } from '#web/routes/route-error.tsx';
import { loadCurrentUser } from '#web/features/accounts/current-user.api.ts';
import { loadCatalog, loadProcedure } from '#web/features/catalog/catalog.api.ts';
import { loadLanding } from '#web/features/landing/landing.api.ts';
import { loadContinueWatchingRow } from '#web/features/catalog/components/continue-watching-row.ts';
import { paymentsConfigQuery } from '#web/features/payments/payments.api.ts';
import { guards, type Guard } from '#web/features/accounts/guards.ts';
import { guardedRoute, screen } from '#web/routes/route-objects.ts';
import { paths } from '#web/paths.ts';
import { NotFoundPage } from '#web/routes/not-found.tsx';

const homeScreen = () => import('#web/routes/landing/landing.tsx').then((m) => m.LandingPage);
const catalogScreen = () => import('#web/routes/catalog/catalog.tsx').then((m) => m.CatalogPage);

/** The guest pages whose addresses carry a value: they match before any route is added (the others match the splat). */
const guestPagesWithValues = [paths.procedure, paths.catalogFiltered];

/** The public layout's pages, where the members' pages join. */
const pagesRouteId = 'pages';

export function createAppRouter(queryClient: QueryClient) {
  const patched = { members: false, admin: false };
  const guarded = (guard: Guard, children: RouteObject[]) => guardedRoute(queryClient, guard, children);

  // a member's 'Seguir viendo' row loads with the page: it paints in place, not in after it (continue-watching-row.ts)
  const home = (route: RouteObject): RouteObject => ({
    ...route,
    loader: async () => {
      await Promise.all([loadLanding(queryClient), loadContinueWatchingRow(queryClient)]);
      return null;
    },
  });
  // the first page of a catalogue view paints complete; within the catalogue (typing a search, a page, a filter in
  // the query) the screen keeps the shown results, dimmed, until the next ones arrive
  const catalog = (route: RouteObject): RouteObject => ({
    ...route,
    loader: async ({ params, request }) => {
      await Promise.all([loadCatalog(queryClient, params, new URL(request.url)), loadContinueWatchingRow(queryClient)]);
      return null;
    },
    shouldRevalidate: ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
      currentUrl.pathname === nextUrl.pathname ? false : defaultShouldRevalidate,
  });

  const pages: RouteObject[] = [
    home({ index: true, lazy: { Component: homeScreen } }),
    home(screen(paths.index, homeScreen)),
    catalog(screen(paths.catalog, catalogScreen)),
    catalog(screen(paths.catalogFiltered, catalogScreen)),
    {
      ...screen(paths.procedure, () => import('#web/routes/catalog/procedure.tsx').then((m) => m.ProcedurePage)),
      // the detail loads beside the screen's code, and the page paints once, complete: nothing shifts under the video
      loader: ({ params }) => loadProcedure(queryClient, params.id ?? ''),
    },
    screen(paths.events, () => import('#web/routes/events/events.tsx').then((m) => m.EventsPage)),
    screen(paths.faq, () => import('#web/routes/faq.tsx').then((m) => m.FaqPage)),
    screen(paths.about, () => import('#web/routes/about.tsx').then((m) => m.AboutPage)),
    screen(paths.contact, () => import('#web/routes/contact.tsx').then((m) => m.ContactPage)),
    screen(paths.terms, () => import('#web/routes/terms.tsx').then((m) => m.TermsPage)),
    screen(paths.privacy, () => import('#web/routes/privacy.tsx').then((m) => m.PrivacyPage)),
    screen(paths.signUp, () => import('#web/routes/accounts/signup.tsx').then((m) => m.SignUpPage)),
    screen(paths.signUpFinish, () => import('#web/routes/accounts/signup-finish.tsx').then((m) => m.SignUpFinishPage)),

    guarded(guards.guestsOnly, [
      screen(paths.login, () => import('#web/routes/accounts/login.tsx').then((m) => m.LoginPage)),
      // an old address people still follow from mails and bookmarks: the password page is recovery
      {
        path: paths.loginPassword,
        loader: ({ request }) => redirect(`${paths.passwordRecovery}${new URL(request.url).search}`),
      },
      screen(paths.passwordRecovery, () =>
        import('#web/routes/accounts/password-recovery.tsx').then((m) => m.PasswordRecoveryPage),
      ),
      screen(paths.passwordReset, () =>
        import('#web/routes/accounts/password-reset.tsx').then((m) => m.PasswordResetPage),
      ),
    ]),

    screen(paths.certificateVerification, () =>
      import('#web/routes/diplomas/certificate-verification.tsx').then((m) => m.CertificateVerificationPage),
    ),

    { path: paths.adminLogin, loader: () => redirect(paths.login) },

    { path: '*', Component: NotFoundPage },
  ];

  return createBrowserRouter(
    [
      {
        path: '/',
        Component: AppLayout,
        HydrateFallback: StartingPage,
        ErrorBoundary: RouteError,
        loader: async () => {
          await Promise.all([loadCurrentUser(queryClient), queryClient.prefetchQuery(paymentsConfigQuery)]);
          return null;
        },
        children: [{ id: pagesRouteId, ErrorBoundary: RouteError, children: pages }],
      },
    ],
    {
      // The members' routes join the first time an address outside the guest pages and the console is opened, the
      // console's the first time an address under /admin is (member-routes.tsx, admin-routes.tsx): their tables and
      // the names of their chunks are not on a guest's first page. Until then such an address matches the not-found
      // splat, which makes the router ask here.
      async patchRoutesOnNavigation({ path, patch, signal }) {
        if (guestPagesWithValues.some((pattern) => matchPath(pattern, path))) return;
        // a member's page does not load the console's route table, nor the console the members'
        if (matchPath({ path: paths.admin, end: false }, path)) {
          if (patched.admin) return;
          const { adminRoute } = await import('#web/routes/admin/admin-routes.tsx');
          if (patched.admin || signal.aborted) return;
          patch(null, [adminRoute(queryClient)]);
          patched.admin = true;
          return;
        }
        if (patched.members) return;
        const { memberPages } = await import('#web/routes/member-routes.tsx');
        if (patched.members || signal.aborted) return;
        patch(pagesRouteId, memberPages(queryClient));
        patched.members = true;
      },
    },
  );
}
