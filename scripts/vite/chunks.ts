// Fewer, larger chunks on the guest path. Left to itself, rolldown gives every set of lazy routes
// that share a module its own chunk: the home page loaded 40 files, most under 1 KiB. Groups instead:
//   vendor          – npm code the first page needs (React, the router, Mantine's core), cached across releases;
//   index           – our code the first page needs (layout, header, router);
//   guest           – what the home, catalogue and procedure pages all share (cards, grids, badges…);
//   guest-<a>-<b>   – what two of them share (the catalogue's and procedure page's inputs), so the third page
//                     does not load it;
//   <page>-shared   – what one of them shares with other lazy code (the catalogue's inputs, the video player);
//   <page>-course   – what one of them shares with the diploma's course page (the Accordion's Collapse, the viewing
//                     session), apart from the rest of <page>-shared, which the course page does not run;
//   modal           – Mantine's Modal and what it brings;
//   member-data     – the queries the members' route table loads with its pages.
// Everything else (member and admin screens, editors, charts) stays in automatic chunks that load only on the
// pages that use them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

type Graph = {
  staticImports: (id: string) => readonly string[];
  dynamicImports: (id: string) => readonly string[];
  ids: () => Iterable<string>;
};

type ModuleView = { importedIds: readonly string[]; code: string | null };

// `import { Card } from '@mantine/core'` imports Mantine's index, which imports every component: followed
// blindly, every page would seem to use all of Mantine. These barrels are read to follow only the names taken.
const barrel = /[\\/]node_modules[\\/](@mantine[\\/][a-z]+)[\\/]esm[\\/]index\.mjs$/;
const barrelExports = new Map<string, Map<string, string>>();

function exportsOf(barrelId: string): Map<string, string> {
  let names = barrelExports.get(barrelId);
  if (names) return names;
  names = new Map();
  for (const [, list, source] of readFileSync(barrelId, 'utf8').matchAll(/^import \{([^}]*)\} from "([^"]+)";$/gm)) {
    for (const item of list!.split(',')) {
      const local = item
        .trim()
        .split(/\s+as\s+/)
        .pop();
      if (local) names.set(local, path.resolve(path.dirname(barrelId), source!));
    }
  }
  barrelExports.set(barrelId, names);
  return names;
}

/** The names a module imports from a package, or null when it takes more than named imports. */
function namesFrom(code: string, pkg: string): string[] | null {
  const quoted = `["']${pkg.replace('/', '\\/')}["']`;
  if (new RegExp(`(\\*\\s*as\\s+[\\w$]+|export\\s*\\{[^}]*\\})\\s*from\\s*${quoted}`).test(code)) return null;
  const names: string[] = [];
  for (const [, list] of code.matchAll(new RegExp(`import\\s*\\{([^}]*)\\}\\s*from\\s*${quoted}`, 'g'))) {
    for (const item of list!.split(',')) {
      const name = item.trim().split(/\s+as\s+/)[0];
      if (name) names.push(name);
    }
  }
  return names;
}

/** What a module imports, with Mantine's barrels replaced by the modules behind the names it uses. */
function importsOf(module: ModuleView): string[] {
  const result: string[] = [];
  for (const dependency of module.importedIds) {
    const match = barrel.exec(dependency);
    const names = match && module.code !== null ? namesFrom(module.code, match[1]!.replace('\\', '/')) : null;
    const targets = names?.map((name) => exportsOf(dependency).get(name));
    if (!targets?.length || targets.some((target) => target === undefined)) result.push(dependency);
    else result.push(...(targets as string[]));
  }
  return result;
}

const entryModule = path.join('src', 'web', 'main.tsx');
/** The pages a guest meets first, each a lazy route. */
const guestPages = ['landing/landing', 'catalog/catalog', 'catalog/procedure'];
const pageModule = (page: string) => path.join('src', 'web', 'routes', `${page}.tsx`);
const modalModule = path.join('@mantine', 'core', 'esm', 'components', 'Modal', 'Modal.mjs');
const memberRoutesModule = path.join('src', 'web', 'routes', 'member-routes.tsx');
const courseModule = path.join('src', 'web', 'routes', 'diplomas', 'diploma-course.tsx');
const loadErrorModule = path.join('src', 'web', 'components', 'load-error-alert.tsx');
// Mantine's helpers (hooks, styles API), not components: what Progress or Accordion on a member page needs of them
const mantineHelper = /[\\/]node_modules[\\/]@mantine[\\/](hooks[\\/]|core[\\/]esm[\\/]core[\\/])/;

function closure(graph: Graph, start: string): Set<string> {
  const seen = new Set<string>([start]);
  const stack = [start];
  while (stack.length) {
    for (const next of graph.staticImports(stack.pop()!)) {
      if (!seen.has(next)) {
        seen.add(next);
        stack.push(next);
      }
    }
  }
  return seen;
}

/**
 * The chunk of each module the guest pages load beyond the first page's code: `guest` when all those pages
 * use it, `guest-<a>-<b>` when two do, `<page>-shared` when one does and some other lazy code does too. Modules only one page uses stay in
 * that page's own chunk; modules no guest page uses are left to automatic chunking.
 */
function guestGroups(graph: Graph): Map<string, string> {
  const ids = [...graph.ids()];
  const find = (file: string) => {
    const id = ids.find((candidate) => candidate.endsWith(file));
    if (!id) throw new Error(`chunks: ${file} is not in the build`);
    return id;
  };
  const initial = closure(graph, find(entryModule));
  const lazyRoots = [...new Set(ids.flatMap((id) => graph.dynamicImports(id)))];
  const reach = new Map(lazyRoots.map((root) => [root, closure(graph, root)]));
  const pages = guestPages.map((page) => ({ page, root: find(pageModule(page)) }));
  const groups = new Map<string, string>();
  for (const { page, root } of pages) {
    const own = reach.get(root) ?? closure(graph, root);
    for (const id of own) {
      if (initial.has(id) || id === root || groups.has(id)) continue;
      const pagesUsing = pages.filter((other) => reach.get(other.root)?.has(id));
      const usedElsewhere = lazyRoots.some((other) => other !== root && reach.get(other)!.has(id));
      // a helper two guest pages share goes with what all of them load, not with the components those two share
      // (the catalogue's and procedure page's Alert and inputs), which other pages would then load for the helper
      if (pagesUsing.length === pages.length || (pagesUsing.length >= 2 && mantineHelper.test(id)))
        groups.set(id, 'guest');
      // only the pages that use it load it: the catalogue's inputs stay off the home page
      else if (pagesUsing.length >= 2)
        groups.set(id, `guest-${pagesUsing.map((other) => path.basename(other.page)).join('-')}`);
      else if (usedElsewhere) groups.set(id, `${path.basename(page)}-shared`);
    }
  }
  // The diploma's course page shares a few modules with one guest page each: the Accordion's Collapse with the
  // catalogue, the viewing session with the procedure page. In those pages' -shared chunks they came with the
  // catalogue's inputs and the procedure page's Switch, which the course page loaded and never ran: they get chunks of
  // their own, which those guest pages load beside their -shared ones.
  const course = find(courseModule);
  for (const id of reach.get(course) ?? closure(graph, course)) {
    const group = groups.get(id);
    if (group?.endsWith('-shared')) groups.set(id, group.replace(/-shared$/, '-course'));
  }
  // Mantine's Modal (transition, portal, focus trap, remove-scroll) loads later on every page (the error dialog
  // at idle, the guide's notice, console dialogs): one chunk rather than one per set of importers
  for (const id of closure(graph, find(modalModule))) {
    if (!initial.has(id) && !groups.has(id)) groups.set(id, 'modal');
  }
  // the members' route table loads its pages' queries (diplomas, profile…) on every member page: one chunk rather
  // than one small file each, which a phone would ask for one by one; what the guest pages load later for a
  // member (the favourite heart, 'Seguir viendo', the player's saved place) keeps its own chunks
  const loadedLaterByGuestPages = new Set(
    pages.flatMap(({ root }) =>
      [...reach.get(root)!].flatMap((id) => graph.dynamicImports(id)).flatMap((lazy) => [...reach.get(lazy)!]),
    ),
  );
  const memberRoutes = find(memberRoutesModule);
  // the member screens' load-error message (its Alert loads only when shown) rather than a chunk of its own
  for (const id of [...closure(graph, memberRoutes), find(loadErrorModule)]) {
    if (id !== memberRoutes && !initial.has(id) && !groups.has(id) && !loadedLaterByGuestPages.has(id))
      groups.set(id, 'member-data');
  }
  return groups;
}

/** The plugin reads the module graph once the build has it; the groups below consult it while chunking. */
export function guestChunks() {
  let groupOf = new Map<string, string>();
  const plugin: Plugin = {
    name: 'cxvet:guest-chunks',
    apply: 'build',
    buildEnd(error) {
      if (error) return;
      groupOf = guestGroups({
        staticImports: (id) => {
          const info = this.getModuleInfo(id);
          return info ? importsOf(info) : [];
        },
        dynamicImports: (id) => this.getModuleInfo(id)?.dynamicallyImportedIds ?? [],
        ids: () => this.getModuleIds(),
      });
      if (process.env.CHUNKS_DEBUG)
        for (const [id, group] of groupOf) console.log(group, path.relative(process.cwd(), id));
    },
  };
  const groups = [
    { name: 'vendor', test: /[\\/]node_modules[\\/]/, tags: ['$initial' as const], priority: 30 },
    { name: 'index', tags: ['$initial' as const], priority: 20 },
    // before the per-page groups, which would otherwise take shared modules in as their dependencies
    {
      name: (id: string) => groupOf.get(id) ?? null,
      test: (id: string) => groupOf.get(id)?.startsWith('guest') ?? false,
      priority: 15,
    },
    { name: (id: string) => groupOf.get(id) ?? null, test: (id: string) => groupOf.has(id), priority: 10 },
  ];
  return { plugin, groups };
}
