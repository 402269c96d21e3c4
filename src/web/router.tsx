import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { AppLayout } from '#web/components/layout/app-layout.tsx';
import { PageLoader } from '#web/components/page-loader.tsx';
import { RouteError } from '#web/components/route-error.tsx';
import { loadCurrentUser } from '#web/features/accounts/api.ts';
import { guards, type Guard } from '#web/features/accounts/guards.ts';
import { paths } from '#web/paths.ts';
import { NotFoundPage } from '#web/routes/not-found.tsx';

/** A screen loaded on demand, so a guest's first page carries no member or admin code. */
const screen = (path: string, load: () => Promise<ComponentType>): RouteObject => ({
  path,
  lazy: { Component: load },
});

/** A declared route whose screen is not built yet: its guard still applies. */
const notBuilt = (...routePaths: string[]): RouteObject[] =>
  routePaths.map((path) => ({ path, Component: NotFoundPage }));

const homeScreen = () => import('#web/routes/home.tsx').then((m) => m.HomePage);

export function createAppRouter(queryClient: QueryClient) {
  const guarded = (guard: Guard, children: RouteObject[]): RouteObject => ({
    loader: async () => {
      const target = guard(await loadCurrentUser(queryClient));
      if (target) throw redirect(target);
      return null;
    },
    children,
  });

  const pages: RouteObject[] = [
    { index: true, lazy: { Component: homeScreen } },
    screen(paths.index, homeScreen),
    ...notBuilt(
      paths.catalog,
      paths.catalogFiltered,
      paths.procedure,
      paths.events,
      paths.faq,
      paths.about,
      paths.contact,
      paths.terms,
      paths.privacy,
      paths.signUp,
      paths.signUpFinish,
    ),

    guarded(guards.guestsOnly, [
      screen(paths.login, () => import('#web/routes/login.tsx').then((m) => m.LoginPage)),
      ...notBuilt(paths.loginPassword, paths.passwordRecovery, paths.passwordReset),
    ]),

    guarded(guards.signedIn, notBuilt(paths.profile, paths.profileAccount, paths.profilePayment)),

    guarded(
      guards.premiumAccess,
      notBuilt(
        paths.myDiplomas,
        paths.myDiploma,
        paths.myCxVetDiploma,
        paths.diplomaPreview,
        paths.diplomaFinalize,
      ),
    ),
    guarded(guards.signedIn, notBuilt(paths.myClassrooms, paths.myClassroom)),
    guarded(guards.classroomAdmin, notBuilt(paths.classroomAdmin, paths.classroomAdminDetail)),
    guarded(guards.diplomaAdmin, notBuilt(paths.diplomaAdmin, paths.diplomaAdminDetail)),

    { path: paths.adminLogin, loader: () => redirect(paths.login) },
    guarded(
      guards.admin,
      notBuilt(
        paths.admin,
        paths.adminHome,
        paths.adminProcedures,
        paths.adminProcedure,
        paths.adminTags,
        paths.adminTag,
        paths.adminEvents,
        paths.adminEvent,
        paths.adminUsers,
        paths.adminUser,
        paths.adminManualPremium,
        paths.adminManualPremiumUpgrade,
        paths.adminManualPremiumDowngrade,
        paths.adminMailing,
        paths.adminStatistics,
        paths.adminNewsletter,
        paths.adminOrganizations,
        paths.adminOrganizationCreate,
        paths.adminOrganization,
        paths.adminLandingPhotos,
        paths.adminClassrooms,
        paths.adminClassroomCreate,
        paths.adminClassroom,
        paths.adminDiplomas,
        paths.adminDiplomaCreate,
        paths.adminDiploma,
        paths.adminDiplomaPreview,
        `${paths.admin}/*`,
      ),
    ),

    { path: '*', Component: NotFoundPage },
  ];

  return createBrowserRouter([
    {
      path: '/',
      Component: AppLayout,
      HydrateFallback: PageLoader,
      ErrorBoundary: RouteError,
      loader: async () => {
        await loadCurrentUser(queryClient);
        return null;
      },
      children: [{ ErrorBoundary: RouteError, children: pages }],
    },
  ]);
}
