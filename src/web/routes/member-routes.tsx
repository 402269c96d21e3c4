import type { QueryClient } from '@tanstack/react-query';
import type { RouteObject } from 'react-router';
import { guards, type Guard } from '#web/features/accounts/guards.ts';
import { paths } from '#web/paths.ts';
import { guardedRoute, screen, withData } from '#web/routes/route-objects.ts';
import { loadProfileCards } from '#web/routes/accounts/profile-cards.ts';
import { catalogPageQuery } from '#web/features/catalog/catalog.api.ts';
import { myClassroomQuery, myClassroomsQuery } from '#web/features/classrooms/classrooms.api.ts';
import { courseQuery, myDiplomasQuery } from '#web/features/diplomas/member/diplomas.api.ts';
import { favoritesQuery } from '#web/features/watching/watching.api.ts';

// The signed-in members' pages, inside the public layout, added to the router the first time an address outside the
// guest pages is opened (router.tsx).

const diplomaCourseScreen = () => import('#web/routes/diplomas/diploma-course.tsx').then((m) => m.DiplomaCoursePage);

export function memberPages(queryClient: QueryClient): RouteObject[] {
  const guarded = (guard: Guard, children: RouteObject[]) => guardedRoute(queryClient, guard, children);
  const course = (route: RouteObject) =>
    withData(queryClient, guards.premiumAccess, route, ({ id = '' }) => queryClient.prefetchQuery(courseQuery(id)));
  return [
    guarded(guards.signedIn, [
      withData(
        queryClient,
        guards.signedIn,
        screen(paths.profile, () => import('#web/routes/accounts/profile.tsx').then((m) => m.ProfilePage)),
        // the cards only some members see (profile-cards.ts)
        () => loadProfileCards(queryClient),
      ),
      screen(paths.profileAccount, () =>
        import('#web/routes/accounts/profile-account.tsx').then((m) => m.ProfileAccountPage),
      ),
      screen(paths.profilePayment, () =>
        import('#web/routes/accounts/profile-payment.tsx').then((m) => m.ProfilePaymentPage),
      ),
      screen(paths.profilePrivacy, () =>
        import('#web/routes/privacy/profile-privacy.tsx').then((m) => m.ProfilePrivacyPage),
      ),
      screen(paths.profileDevices, () =>
        import('#web/routes/accounts/profile-devices.tsx').then((m) => m.ProfileDevicesPage),
      ),
      screen(paths.profileCredits, () => import('#web/routes/credits/my-credits.tsx').then((m) => m.MyCreditsPage)),
    ]),

    guarded(guards.premiumAccess, [
      withData(
        queryClient,
        guards.premiumAccess,
        screen(paths.myDiplomas, () => import('#web/routes/diplomas/my-diplomas.tsx').then((m) => m.MyDiplomasPage)),
        () => queryClient.prefetchQuery(myDiplomasQuery),
      ),
      course(screen(paths.myDiploma, diplomaCourseScreen)),
      course(screen(paths.myCxVetDiploma, diplomaCourseScreen)),
      screen(paths.diplomaPreview, () =>
        import('#web/routes/diplomas/diploma-preview.tsx').then((m) => m.DiplomaPreviewPage),
      ),
      screen(paths.diplomaFinalize, () =>
        import('#web/routes/diplomas/diploma-finalize.tsx').then((m) => m.DiplomaFinalizePage),
      ),
    ]),
    guarded(guards.signedIn, [
      withData(
        queryClient,
        guards.signedIn,
        screen(paths.myFavorites, () => import('#web/routes/watching/my-favorites.tsx').then((m) => m.MyFavoritesPage)),
        () => queryClient.prefetchQuery(favoritesQuery),
      ),
      withData(
        queryClient,
        guards.signedIn,
        screen(paths.myClassrooms, () =>
          import('#web/routes/classrooms/my-classrooms.tsx').then((m) => m.MyClassroomsPage),
        ),
        () => queryClient.prefetchQuery(myClassroomsQuery),
      ),
      withData(
        queryClient,
        guards.signedIn,
        screen(paths.myClassroom, () =>
          import('#web/routes/classrooms/my-classroom.tsx').then((m) => m.MyClassroomPage),
        ),
        // the aula's first page of videos, as the page asks for it
        ({ id = '' }) =>
          Promise.all([
            queryClient.prefetchQuery(myClassroomQuery(id)),
            queryClient.prefetchQuery(catalogPageQuery({ classroom: id, page: 1 })),
          ]),
      ),
    ]),
    guarded(guards.classroomAdmin, [
      screen(paths.classroomAdmin, () =>
        import('#web/routes/classrooms/classroom-admin.tsx').then((m) => m.ClassroomAdminPage),
      ),
      screen(paths.classroomAdminDetail, () =>
        import('#web/routes/classrooms/classroom-admin-detail.tsx').then((m) => m.ClassroomAdminDetailPage),
      ),
    ]),
    guarded(guards.diplomaAdmin, [
      screen(paths.diplomaAdmin, () =>
        import('#web/routes/diplomas/diploma-admin.tsx').then((m) => m.DiplomaAdminPage),
      ),
      screen(paths.diplomaAdminDetail, () =>
        import('#web/routes/diplomas/diploma-admin-detail.tsx').then((m) => m.DiplomaAdminDetailPage),
      ),
    ]),
  ];
}
