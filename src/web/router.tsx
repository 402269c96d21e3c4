import type { QueryClient } from '@tanstack/react-query';
import type { ComponentType } from 'react';
import { createBrowserRouter, redirect, type RouteObject } from 'react-router';
import { AppLayout } from '#web/components/layout/app-layout.tsx';
import { PageLoader } from '#web/components/page-loader.tsx';
import { RouteError } from '#web/components/route-error.tsx';
import { loadCurrentUser } from '#web/features/accounts/accounts.api.ts';
import { procedureQuery } from '#web/features/catalog/catalog.api.ts';
import { loadLanding } from '#web/features/landing/landing.api.ts';
import { paymentsConfigQuery } from '#web/features/payments/payments.api.ts';
import { guards, type Guard } from '#web/features/accounts/guards.ts';
import { paths } from '#web/paths.ts';
import { NotFoundPage } from '#web/routes/not-found.tsx';

/** A screen loaded on demand, so a guest's first page carries no member or admin code. */
const screen = (path: string, load: () => Promise<ComponentType>): RouteObject => ({
  path,
  lazy: { Component: load },
});

const homeScreen = () => import('#web/routes/landing/landing.tsx').then((m) => m.LandingPage);
const catalogScreen = () => import('#web/routes/catalog/catalog.tsx').then((m) => m.CatalogPage);
const diplomaCourseScreen = () => import('#web/routes/diplomas/diploma-course.tsx').then((m) => m.DiplomaCoursePage);

const adminLayout = () => import('#web/routes/admin/admin-layout.tsx').then((m) => m.AdminLayout);
const adminProceduresScreen = () => import('#web/routes/catalog/admin-procedures.tsx').then((m) => m.AdminProceduresPage);

/** The console's pages, inside its own frame (not the public header and footer). */
const adminPages: RouteObject[] = [
  { index: true, lazy: { Component: adminProceduresScreen } },
  screen(paths.adminHome, adminProceduresScreen),
  screen(paths.adminProcedures, adminProceduresScreen),
  screen(paths.adminProcedure, () => import('#web/routes/catalog/admin-procedure-form.tsx').then((m) => m.AdminProcedureFormPage)),
  screen(paths.adminTags, () => import('#web/routes/catalog/admin-tags.tsx').then((m) => m.AdminTagsPage)),
  screen(paths.adminTag, () => import('#web/routes/catalog/admin-tag-form.tsx').then((m) => m.AdminTagFormPage)),
  screen(paths.adminEvents, () => import('#web/routes/events/admin-events.tsx').then((m) => m.AdminEventsPage)),
  screen(paths.adminEvent, () => import('#web/routes/events/admin-event-form.tsx').then((m) => m.AdminEventFormPage)),
  screen(paths.adminOrganizations, () => import('#web/routes/organizations/admin-organizations.tsx').then((m) => m.AdminOrganizationsPage)),
  screen(paths.adminOrganizationCreate, () => import('#web/routes/organizations/admin-organization-form.tsx').then((m) => m.AdminOrganizationFormPage)),
  screen(paths.adminOrganization, () => import('#web/routes/organizations/admin-organization-form.tsx').then((m) => m.AdminOrganizationFormPage)),
  screen(paths.adminLandingPhotos, () => import('#web/routes/landing/admin-landing-photos.tsx').then((m) => m.AdminLandingPhotosPage)),
  screen(paths.adminNewsletter, () => import('#web/routes/landing/admin-newsletter.tsx').then((m) => m.AdminNewsletterPage)),
  screen(paths.adminUsers, () => import('#web/routes/users/admin-users.tsx').then((m) => m.AdminUsersPage)),
  screen(paths.adminUser, () => import('#web/routes/users/admin-user-form.tsx').then((m) => m.AdminUserFormPage)),
  screen(paths.adminManualPremium, () => import('#web/routes/users/admin-manual-premium.tsx').then((m) => m.AdminManualPremiumPage)),
  screen(paths.adminManualPremiumUpgrade, () =>
    import('#web/routes/users/admin-manual-premium-upgrade.tsx').then((m) => m.AdminManualPremiumUpgradePage),
  ),
  screen(paths.adminManualPremiumDowngrade, () =>
    import('#web/routes/users/admin-manual-premium-downgrade.tsx').then((m) => m.AdminManualPremiumDowngradePage),
  ),
  screen(paths.adminMailing, () => import('#web/routes/mailing/admin-mailing.tsx').then((m) => m.AdminMailingPage)),
  screen(paths.adminStatistics, () => import('#web/routes/analytics/admin-statistics.tsx').then((m) => m.AdminStatisticsPage)),
  screen(paths.adminClassrooms, () => import('#web/routes/classrooms/admin-classrooms.tsx').then((m) => m.AdminClassroomsPage)),
  screen(paths.adminClassroomCreate, () => import('#web/routes/classrooms/admin-classroom-form.tsx').then((m) => m.AdminClassroomFormPage)),
  screen(paths.adminClassroom, () => import('#web/routes/classrooms/admin-classroom-form.tsx').then((m) => m.AdminClassroomFormPage)),
  screen(paths.adminDiplomas, () => import('#web/routes/diplomas/admin-diplomas.tsx').then((m) => m.AdminDiplomasPage)),
  screen(paths.adminDiplomaCreate, () => import('#web/routes/diplomas/admin-diplomas-editor.tsx').then((m) => m.AdminDiplomaCreatePage)),
  screen(paths.adminDiploma, () => import('#web/routes/diplomas/admin-diplomas-editor.tsx').then((m) => m.AdminDiplomaEditPage)),
  screen(paths.adminDiplomaPreview, () => import('#web/routes/diplomas/admin-diplomas-preview.tsx').then((m) => m.AdminDiplomaPreviewPage)),
  screen(paths.adminOutbox, () => import('#web/routes/mailing/admin-outbox.tsx').then((m) => m.AdminOutboxPage)),
  screen(paths.adminBackups, () => import('#web/routes/backups/admin-backups.tsx').then((m) => m.AdminBackupsPage)),
  { path: '*', Component: NotFoundPage },
];

export function createAppRouter(queryClient: QueryClient) {
  const guarded = (guard: Guard, children: RouteObject[]): RouteObject => ({
    loader: async () => {
      const target = guard(await loadCurrentUser(queryClient));
      if (target) throw redirect(target);
      return null;
    },
    children,
  });

  const home = (route: RouteObject): RouteObject => ({ ...route, loader: () => loadLanding(queryClient) });

  const pages: RouteObject[] = [
    home({ index: true, lazy: { Component: homeScreen } }),
    home(screen(paths.index, homeScreen)),
    screen(paths.catalog, catalogScreen),
    screen(paths.catalogFiltered, catalogScreen),
    {
      ...screen(paths.procedure, () => import('#web/routes/catalog/procedure.tsx').then((m) => m.ProcedurePage)),
      // the detail loads beside the screen's code, and the page paints once, complete: nothing shifts under the video
      loader: async ({ params }) => {
        await queryClient.prefetchQuery(procedureQuery(params.id ?? ''));
        return null;
      },
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
      { path: paths.loginPassword, loader: ({ request }) => redirect(`${paths.passwordRecovery}${new URL(request.url).search}`) },
      screen(paths.passwordRecovery, () => import('#web/routes/accounts/password-recovery.tsx').then((m) => m.PasswordRecoveryPage)),
      screen(paths.passwordReset, () => import('#web/routes/accounts/password-reset.tsx').then((m) => m.PasswordResetPage)),
    ]),

    guarded(guards.signedIn, [
      screen(paths.profile, () => import('#web/routes/accounts/profile.tsx').then((m) => m.ProfilePage)),
      screen(paths.profileAccount, () => import('#web/routes/accounts/profile-account.tsx').then((m) => m.ProfileAccountPage)),
      screen(paths.profilePayment, () => import('#web/routes/accounts/profile-payment.tsx').then((m) => m.ProfilePaymentPage)),
      screen(paths.profilePrivacy, () => import('#web/routes/privacy/profile-privacy.tsx').then((m) => m.ProfilePrivacyPage)),
      screen(paths.profileDevices, () => import('#web/routes/accounts/profile-devices.tsx').then((m) => m.ProfileDevicesPage)),
    ]),

    guarded(guards.premiumAccess, [
      screen(paths.myDiplomas, () => import('#web/routes/diplomas/my-diplomas.tsx').then((m) => m.MyDiplomasPage)),
      screen(paths.myDiploma, diplomaCourseScreen),
      screen(paths.myCxVetDiploma, diplomaCourseScreen),
      screen(paths.diplomaPreview, () => import('#web/routes/diplomas/diploma-preview.tsx').then((m) => m.DiplomaPreviewPage)),
      screen(paths.diplomaFinalize, () => import('#web/routes/diplomas/diploma-finalize.tsx').then((m) => m.DiplomaFinalizePage)),
    ]),
    screen(paths.certificateVerification, () => import('#web/routes/diplomas/certificate-verification.tsx').then((m) => m.CertificateVerificationPage)),
    guarded(guards.signedIn, [
      screen(paths.myFavorites, () => import('#web/routes/watching/my-favorites.tsx').then((m) => m.MyFavoritesPage)),
      screen(paths.myClassrooms, () => import('#web/routes/classrooms/my-classrooms.tsx').then((m) => m.MyClassroomsPage)),
      screen(paths.myClassroom, () => import('#web/routes/classrooms/my-classroom.tsx').then((m) => m.MyClassroomPage)),
    ]),
    guarded(guards.classroomAdmin, [
      screen(paths.classroomAdmin, () => import('#web/routes/classrooms/classroom-admin.tsx').then((m) => m.ClassroomAdminPage)),
      screen(paths.classroomAdminDetail, () => import('#web/routes/classrooms/classroom-admin-detail.tsx').then((m) => m.ClassroomAdminDetailPage)),
    ]),
    guarded(guards.diplomaAdmin, [
      screen(paths.diplomaAdmin, () => import('#web/routes/diplomas/diploma-admin.tsx').then((m) => m.DiplomaAdminPage)),
      screen(paths.diplomaAdminDetail, () => import('#web/routes/diplomas/diploma-admin-detail.tsx').then((m) => m.DiplomaAdminDetailPage)),
    ]),

    { path: paths.adminLogin, loader: () => redirect(paths.login) },

    { path: '*', Component: NotFoundPage },
  ];

  return createBrowserRouter([
    {
      path: '/',
      Component: AppLayout,
      HydrateFallback: PageLoader,
      ErrorBoundary: RouteError,
      loader: async () => {
        await Promise.all([loadCurrentUser(queryClient), queryClient.prefetchQuery(paymentsConfigQuery)]);
        return null;
      },
      children: [{ ErrorBoundary: RouteError, children: pages }],
    },
    {
      path: paths.admin,
      HydrateFallback: PageLoader,
      ErrorBoundary: RouteError,
      lazy: { Component: adminLayout },
      ...guarded(guards.admin, [{ ErrorBoundary: RouteError, children: adminPages }]),
    },
  ]);
}
