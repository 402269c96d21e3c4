// What a signed-in member's pages load before they are complete, figures that do not depend on the machine's load:
// scripts and bytes, API answers, and the longest chain of requests that each waited for the one before (a
// waterfall: the HTML, then the app's code, then the route table, then the screen, then its data…). Against a
// server you started with the demo data (built: `npm run build`, then
// `PORT=3000 DATA_DIR=$(mktemp -d) SEED_DEMO=1 node build/server/main.js`):
//   BENCH_BASE_URL=http://localhost:3000 node --import tsx bench/member-loads-cli.ts
// then Lighthouse's mobile defaults on the same pages signed in (BENCH_LIGHTHOUSE_RUNS, default 3; 0 for none).
// BENCH_PAGES=mis-diplomados,diplomado keeps only the pages whose path contains one of the words ('/' for the home).
import { chromium, type CDPSession } from '@playwright/test';
import { lighthouseRows, measureLighthouse } from './pages.ts';

const baseUrl = process.env.BENCH_BASE_URL ?? 'http://localhost:3000';
const chromiumPath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

type Initiator = { type: string; url?: string; stack?: Stack };
type Stack = { callFrames: { url: string }[]; parent?: Stack };

/**
 * The addresses that asked for a request: the document's parser, or every script on the stack (async parts
 * included) that made it; Vite's preload helper in the app's code is on top of every lazy import.
 */
function initiatorUrls(initiator: Initiator): string[] {
  const urls = initiator.url ? [initiator.url] : [];
  for (let stack = initiator.stack; stack; stack = stack.parent) {
    for (const call of stack.callFrames) if (call.url) urls.push(call.url);
  }
  return urls;
}

type Load = {
  scripts: number;
  scriptKiB: number;
  /** scripts the HTML names (the app's entry and its module preloads): they load at once, not in a chain */
  scriptsFromHtml: number;
  api: string[];
  /** API answers the HTML asks for as it is parsed, beside the code */
  apiFromHtml: number;
  chain: string[];
};

async function measure(session: CDPSession, open: () => Promise<unknown>): Promise<Load> {
  const depth = new Map<string, { depth: number; from?: string }>();
  const bytes = new Map<string, number>();
  const types = new Map<string, string>();
  const fromHtml = new Set<string>();
  const byId = new Map<string, string>();
  session.on(
    'Network.requestWillBeSent',
    (event: { requestId: string; request: { url: string }; type?: string; initiator: Initiator }) => {
      const { url } = event.request;
      byId.set(event.requestId, url);
      types.set(url, event.type ?? '');
      if (depth.has(url)) return;
      if (event.initiator.type === 'parser' && depth.size > 0) fromHtml.add(url);
      // the deepest known script among those on the stack: the request waited for it
      const from = initiatorUrls(event.initiator)
        .filter((caller) => depth.has(caller))
        .sort((a, b) => depth.get(b)!.depth - depth.get(a)!.depth)[0];
      depth.set(url, { depth: from ? depth.get(from)!.depth + 1 : 0, from });
    },
  );
  session.on('Network.loadingFinished', (event: { requestId: string; encodedDataLength: number }) => {
    const url = byId.get(event.requestId);
    if (url) bytes.set(url, (bytes.get(url) ?? 0) + event.encodedDataLength);
  });
  await open();
  const scripts = [...types].filter(([, type]) => type === 'Script').map(([url]) => url);
  const api = [...depth.keys()].filter((url) => new URL(url).pathname.startsWith('/api/'));
  // the deepest request and the requests it waited for
  const deepest = [...depth].sort((a, b) => b[1].depth - a[1].depth)[0];
  const chain: string[] = [];
  for (let url = deepest?.[0]; url; url = depth.get(url)?.from) {
    const { pathname, search } = new URL(url);
    chain.unshift(pathname + search);
  }
  return {
    scriptsFromHtml: scripts.filter((url) => fromHtml.has(url)).length,
    apiFromHtml: api.filter((url) => fromHtml.has(url)).length,
    scripts: scripts.length,
    scriptKiB: scripts.reduce((total, url) => total + (bytes.get(url) ?? 0), 0) / 1024,
    api: api.map((url) => new URL(url).pathname),
    chain,
  };
}

// the demo Premium member (src/server/db/seed/demo-accounts.ts)
const login = await fetch(`${baseUrl}/api/account/login`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', origin: baseUrl },
  body: JSON.stringify({ email: 'premium@demo.cxvet.com', password: 'Demo1234' }),
});
if (!login.ok) throw new Error(`the demo Premium member's sign-in answered ${login.status}`);
const cookie = login.headers
  .getSetCookie()
  .map((value) => value.split(';')[0])
  .join('; ');
const request = (path: string) => fetch(`${baseUrl}${path}`, { headers: { cookie } }).then((r) => r.json());
const classrooms = (await request('/api/classrooms')) as { items: { id: string }[] };
const diplomas = (await request('/api/diplomas')) as {
  items: { id: string; isEnrolled: boolean; isExternal: boolean }[];
};
const diploma = diplomas.items.find((item) => item.isEnrolled);
const pages = [
  '/',
  '/mis-aulas',
  classrooms.items[0] ? `/mis-aulas/aula/${classrooms.items[0].id}` : null,
  '/mis-diplomados',
  diploma ? `/mis-diplomados/${diploma.isExternal ? 'diplomado' : 'diplomado-CxVet'}/${diploma.id}` : null,
  '/perfil',
  '/mis-favoritos',
]
  .filter((path): path is string => path !== null)
  .filter(
    (path) =>
      !process.env.BENCH_PAGES ||
      process.env.BENCH_PAGES.split(',').some((word) => (word === '/' ? path === '/' : path.includes(word))),
  );

const browser = await chromium.launch({ executablePath: chromiumPath });
try {
  console.log(
    '| page (signed in, 360 px, first visit) | scripts (named in the HTML) | KiB (as sent) | API answers (asked by the HTML) | longest chain of requests |',
  );
  console.log('|---|---|---|---|---|');
  for (const path of pages) {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 }, isMobile: true });
    await context.addCookies(
      cookie.split('; ').map((pair) => {
        const [name, ...value] = pair.split('=');
        return { name: name!, value: value.join('='), url: baseUrl };
      }),
    );
    const page = await context.newPage();
    const session = await context.newCDPSession(page);
    await session.send('Network.enable');
    const load = await measure(session, () => page.goto(`${baseUrl}${path}`, { waitUntil: 'networkidle' }));
    console.log(
      `| ${path.replace(/[0-9a-f-]{36}/, ':id')} | ${load.scripts} (${load.scriptsFromHtml}) | ${load.scriptKiB.toFixed(1)} | ${load.api.length} (${load.apiFromHtml}) | ${load.chain.length - 1}: ${load.chain.map((url) => url.replace(/[0-9a-f-]{36}/g, ':id')).join(' → ')} |`,
    );
    await context.close();
  }
} finally {
  await browser.close();
}

if (process.env.BENCH_LIGHTHOUSE_RUNS !== '0') {
  const figures = await measureLighthouse(
    baseUrl,
    pages.map((path) => ({ name: path.replace(/[0-9a-f-]{36}/, ':id'), path })),
    { cookie },
  );
  console.log('\n| figure | measured | goal |\n|---|---|---|');
  for (const row of lighthouseRows(figures)) console.log(`| ${row.figure} | ${row.value} | ${row.goal} |`);
}
