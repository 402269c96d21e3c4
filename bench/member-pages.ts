// A signed-in member's pages and the console's users list under Lighthouse (docs/performance.md, members' goal 2).
import { lighthouseRows, measureLighthouse } from './pages.ts';
import { startServer } from './server.ts';
import { signIn, step, userCount, type Row } from './common.ts';
import type { Evening } from './evening-data.ts';

/**
 * On `npm start` (its own process): the class's first member (Premium, in the evening's aula and diploma, one
 * favourite) on each member page with Lighthouse's mobile defaults, and an Admin on `/admin/users` with its desktop
 * settings; the session cookie goes with every request (Lighthouse's extraHeaders).
 */
export async function measureMemberPages(kind: string, env: Record<string, string>, rows: Row[], evening: Evening) {
  step(`${kind}: member pages and the console in Lighthouse`);
  const server = await startServer(env);
  const { baseUrl } = server;
  try {
    const member = await signIn(baseUrl, 'alumna1@noche.example', baseUrl);
    const favourite = await fetch(`${baseUrl}/api/favorites/${evening.procedureId}`, {
      method: 'PUT',
      headers: { cookie: member, origin: baseUrl },
    });
    if (!favourite.ok) throw new Error(`the favourite answered ${favourite.status}`);
    const admin = await signIn(baseUrl, 'bench-admin@bench.example', baseUrl);
    const memberPages = [
      { name: '/mis-aulas', path: '/mis-aulas' },
      { name: "an aula's page", path: `/mis-aulas/aula/${evening.classroomId}` },
      { name: '/mis-diplomados', path: '/mis-diplomados' },
      { name: "a diploma's course page", path: `/mis-diplomados/diplomado/${evening.diplomaId}` },
      { name: '/perfil', path: '/perfil' },
      { name: '/mis-favoritos', path: '/mis-favoritos' },
    ];
    const onError = (error: unknown) => {
      console.error(`Lighthouse did not run: ${error instanceof Error ? error.message : String(error)}`);
      return [];
    };
    const signedIn = await measureLighthouse(baseUrl, memberPages, { cookie: member }).catch(onError);
    rows.push(...lighthouseRows(signedIn.map((page) => ({ ...page, name: `${page.name} signed in (Premium)` }))));
    const adminPages = await measureLighthouse(baseUrl, [{ name: '/admin/users', path: '/admin/users' }], {
      cookie: admin,
      desktop: true,
    }).catch(onError);
    rows.push(
      ...lighthouseRows(
        adminPages.map((page) => ({ ...page, name: `${page.name} as an Admin, ${userCount} users` })),
        90,
        'desktop',
      ),
    );
  } finally {
    await server.stop();
  }
}
