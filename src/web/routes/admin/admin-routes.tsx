import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { PageLoader } from '#web/components/page-loader.tsx';
import { RouteError } from '#web/routes/route-error.tsx';
import { guards } from '#web/features/accounts/guards.ts';
import { paths } from '#web/paths.ts';
import { NotFoundPage } from '#web/routes/not-found.tsx';
import { guardedRoute, screen, withData } from '#web/routes/route-objects.ts';
import { paymentsConfigQuery } from '#web/features/payments/payments.api.ts';

// The console's routes, added to the router the first time an address under /admin is opened (router.tsx).

const adminLayout = () => import('#web/routes/admin/admin-layout.tsx').then((m) => m.AdminLayout);
const adminProceduresScreen = () =>
  import('#web/routes/catalog/admin-procedures.tsx').then((m) => m.AdminProceduresPage);

/** The console's pages, inside its own frame (not the public header and footer). */
const adminPages = (queryClient: QueryClient): RouteObject[] => {
  /**
   * A list whose first page loads beside its code: the table is drawn once, full, rather than empty and then pushed
   * down by its rows. `prefetch` loads the query its screen opens with, from its API module (loaded on demand, as
   * the screen that imports it is).
   */
  const list = (path: string, load: () => Promise<ComponentType>, prefetch: () => Promise<void>) =>
    withData(queryClient, guards.admin, screen(path, load), prefetch);
  /**
   * A form whose record (`:id`, when it edits one) and option lists load beside its code, as a list's first page
   * does: one wait for both instead of the code, then the record. A record that cannot be read is left to the form,
   * which shows the error as before.
   */
  const form = (
    path: string,
    load: () => Promise<ComponentType>,
    prefetch: (id: string | undefined) => Promise<unknown>,
  ) => withData(queryClient, guards.admin, screen(path, load), (params) => prefetch(params.id));
  const catalogApi = () => import('#web/features/catalog/catalog.admin.api.ts');
  const organizationsApi = () => import('#web/features/organizations/organizations.api.ts');
  const classroomsApi = () => import('#web/features/classrooms/classrooms.api.ts');
  const diplomasApi = () => import('#web/features/diplomas/admin/diplomas.admin.api.ts');
  const classroomForm = (path: string) =>
    form(
      path,
      () => import('#web/routes/classrooms/admin-classroom-form.tsx').then((m) => m.AdminClassroomFormPage),
      async (id) => {
        const [classrooms, organizations] = await Promise.all([classroomsApi(), organizationsApi()]);
        await Promise.all([
          id ? queryClient.prefetchQuery(classrooms.adminClassroomQuery(id)) : null,
          queryClient.prefetchQuery(classrooms.classroomVideoOptionsQuery),
          queryClient.prefetchQuery(organizations.adminOrganizationsQuery),
        ]);
      },
    );
  const proceduresList = (path: string) =>
    list(path, adminProceduresScreen, () =>
      import('#web/features/catalog/catalog.admin.api.ts').then((m) =>
        queryClient.prefetchQuery(m.adminProceduresQuery(m.firstProceduresPage)),
      ),
    );
  const procedures = proceduresList(paths.adminProcedures);
  return [
    { index: true, lazy: procedures.lazy, loader: procedures.loader },
    proceduresList(paths.adminHome),
    procedures,
    form(
      paths.adminProcedure,
      () => import('#web/routes/catalog/admin-procedure-form.tsx').then((m) => m.AdminProcedureFormPage),
      async (id) => {
        const m = await catalogApi();
        await Promise.all([
          id ? queryClient.prefetchQuery(m.adminProcedureQuery(id)) : null,
          queryClient.prefetchQuery(m.adminTagsQuery),
        ]);
      },
    ),
    list(
      paths.adminTags,
      () => import('#web/routes/catalog/admin-tags.tsx').then((m) => m.AdminTagsPage),
      () =>
        import('#web/features/catalog/catalog.admin.api.ts').then((m) => queryClient.prefetchQuery(m.adminTagsQuery)),
    ),
    form(
      paths.adminTag,
      () => import('#web/routes/catalog/admin-tag-form.tsx').then((m) => m.AdminTagFormPage),
      async (id) => id && queryClient.prefetchQuery((await catalogApi()).adminTagQuery(id)),
    ),
    list(
      paths.adminEvents,
      () => import('#web/routes/events/admin-events.tsx').then((m) => m.AdminEventsPage),
      () => import('#web/features/events/events.api.ts').then((m) => queryClient.prefetchQuery(m.adminEventsQuery)),
    ),
    form(
      paths.adminEvent,
      () => import('#web/routes/events/admin-event-form.tsx').then((m) => m.AdminEventFormPage),
      async (id) =>
        id && queryClient.prefetchQuery((await import('#web/features/events/events.api.ts')).adminEventQuery(id)),
    ),
    list(
      paths.adminOrganizations,
      () => import('#web/routes/organizations/admin-organizations.tsx').then((m) => m.AdminOrganizationsPage),
      () =>
        import('#web/features/organizations/organizations.api.ts').then((m) =>
          queryClient.prefetchQuery(m.adminOrganizationsQuery),
        ),
    ),
    screen(paths.adminOrganizationCreate, () =>
      import('#web/routes/organizations/admin-organization-form.tsx').then((m) => m.AdminOrganizationFormPage),
    ),
    form(
      paths.adminOrganization,
      () => import('#web/routes/organizations/admin-organization-form.tsx').then((m) => m.AdminOrganizationFormPage),
      async (id) => id && queryClient.prefetchQuery((await organizationsApi()).adminOrganizationQuery(id)),
    ),
    screen(paths.adminLti, () => import('#web/routes/lti/admin-lti.tsx').then((m) => m.AdminLtiPage)),
    screen(paths.adminLandingPhotos, () =>
      import('#web/routes/landing/admin-landing-photos.tsx').then((m) => m.AdminLandingPhotosPage),
    ),
    screen(paths.adminNewsletter, () =>
      import('#web/routes/landing/admin-newsletter.tsx').then((m) => m.AdminNewsletterPage),
    ),
    list(
      paths.adminUsers,
      () => import('#web/routes/users/admin-users.tsx').then((m) => m.AdminUsersPage),
      () =>
        import('#web/features/users/users.api.ts').then((m) =>
          queryClient.prefetchQuery(m.adminUsersQuery(m.firstUsersPage)),
        ),
    ),
    form(
      paths.adminUser,
      () => import('#web/routes/users/admin-user-form.tsx').then((m) => m.AdminUserFormPage),
      async (id) => {
        const [users, organizations] = await Promise.all([
          import('#web/features/users/users.api.ts'),
          organizationsApi(),
        ]);
        await Promise.all([
          id ? queryClient.prefetchQuery(users.adminUserQuery(id)) : null,
          queryClient.prefetchQuery(organizations.adminOrganizationsQuery),
        ]);
      },
    ),
    screen(paths.adminManualPremium, () =>
      import('#web/routes/users/admin-manual-premium.tsx').then((m) => m.AdminManualPremiumPage),
    ),
    screen(paths.adminManualPremiumUpgrade, () =>
      import('#web/routes/users/admin-manual-premium-upgrade.tsx').then((m) => m.AdminManualPremiumUpgradePage),
    ),
    screen(paths.adminManualPremiumDowngrade, () =>
      import('#web/routes/users/admin-manual-premium-downgrade.tsx').then((m) => m.AdminManualPremiumDowngradePage),
    ),
    screen(paths.adminMailing, () => import('#web/routes/mailing/admin-mailing.tsx').then((m) => m.AdminMailingPage)),
    screen(paths.adminStatistics, () =>
      import('#web/routes/analytics/admin-statistics.tsx').then((m) => m.AdminStatisticsPage),
    ),
    list(
      paths.adminClassrooms,
      () => import('#web/routes/classrooms/admin-classrooms.tsx').then((m) => m.AdminClassroomsPage),
      () =>
        import('#web/features/classrooms/classrooms.api.ts').then((m) =>
          queryClient.prefetchQuery(m.adminClassroomsQuery),
        ),
    ),
    classroomForm(paths.adminClassroomCreate),
    classroomForm(paths.adminClassroom),
    list(
      paths.adminDiplomas,
      () => import('#web/routes/diplomas/admin-diplomas.tsx').then((m) => m.AdminDiplomasPage),
      () =>
        import('#web/features/diplomas/admin/diplomas.admin.api.ts').then((m) =>
          queryClient.prefetchQuery(m.adminDiplomasQuery),
        ),
    ),
    screen(paths.adminDiplomaCreate, () =>
      import('#web/routes/diplomas/admin-diplomas-editor.tsx').then((m) => m.AdminDiplomaCreatePage),
    ),
    form(
      paths.adminDiploma,
      () => import('#web/routes/diplomas/admin-diplomas-editor.tsx').then((m) => m.AdminDiplomaEditPage),
      async (id) => {
        const m = await diplomasApi();
        await Promise.all([
          id ? queryClient.prefetchQuery(m.adminDiplomaQuery(id)) : null,
          queryClient.prefetchQuery(m.diplomaOptionsQuery),
        ]);
      },
    ),
    screen(paths.adminDiplomaPreview, () =>
      import('#web/routes/diplomas/admin-diplomas-preview.tsx').then((m) => m.AdminDiplomaPreviewPage),
    ),
    screen(paths.adminOutbox, () => import('#web/routes/mailing/admin-outbox.tsx').then((m) => m.AdminOutboxPage)),
    screen(paths.adminPrices, () => import('#web/routes/payments/admin-prices.tsx').then((m) => m.AdminPricesPage)),
    screen(paths.adminFacturas, () =>
      import('#web/routes/payments/admin-facturas.tsx').then((m) => m.AdminFacturasPage),
    ),
    screen(paths.adminBackups, () => import('#web/routes/backups/admin-backups.tsx').then((m) => m.AdminBackupsPage)),
    { path: '*', Component: NotFoundPage },
  ];
};

/** /admin: the console's frame, for Admins only, around its pages. */
export function adminRoute(queryClient: QueryClient): RouteObject {
  return {
    path: paths.admin,
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteError,
    lazy: { Component: adminLayout },
    // the test-payments notice is in the frame from its first paint, as the site's root loader has it for its pages
    ...guardedRoute(queryClient, guards.admin, [{ ErrorBoundary: RouteError, children: adminPages(queryClient) }], () =>
      queryClient.prefetchQuery(paymentsConfigQuery),
    ),
  };
}
