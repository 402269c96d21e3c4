// The guests' and a signed-in member's answers, each against constant JSON of the same bytes (docs/performance.md, members' goal 1).
import { rate, type Row } from './common.ts';

/**
 * Guests' and a Premium member's answers, each against a constant JSON of the same bytes served by the same app: the
 * search (guest and signed in), and the member's small answers `/api/profile` and `/api/me`.
 */
export async function measureMembers(
  baseUrl: string,
  searchUrl: string,
  premiumCookie: string,
  constantBodies: Map<string, string>,
  rows: Row[],
) {
  const member = { cookie: premiumCookie };
  for (const [name, url] of [
    ['profile', '/api/profile'],
    ['me', '/api/me'],
  ] as const) {
    const response = await fetch(`${baseUrl}${url}`, { headers: member });
    if (!response.ok) throw new Error(`${url} answered ${response.status}`);
    constantBodies.set(name, await response.text());
  }
  const total = ((await (await fetch(`${baseUrl}/api/catalog/procedures`)).json()) as { total: number }).total;
  const constant = await rate(`${baseUrl}/bench/constant/search`);
  const guest = await rate(`${baseUrl}${searchUrl}`);
  const signedIn = await rate(`${baseUrl}${searchUrl}`, member);
  const ratio = guest.rps / constant.rps;
  const errors = (n: number) => (n ? `, ${n} errors` : '');
  rows.push({
    figure: `catalogue search req/s ÷ constant JSON (${total} procedures, guest)`,
    value: `${ratio.toFixed(2)} (${guest.rps.toFixed(0)} / ${constant.rps.toFixed(0)} req/s${errors(guest.errors)})`,
    goal: '≥ 0.5',
    holds: ratio >= 0.5 && guest.errors === 0,
  });
  const signedInRatio = signedIn.rps / constant.rps;
  rows.push({
    figure: `  the same search signed in (Premium) ÷ constant JSON`,
    value: `${signedInRatio.toFixed(2)} (${signedIn.rps.toFixed(0)} req/s${errors(signedIn.errors)})`,
    goal: '≥ 0.25',
    holds: signedInRatio >= 0.25 && signedIn.errors === 0,
  });
  for (const [name, url] of [
    ['profile', '/api/profile'],
    ['me', '/api/me'],
  ] as const) {
    const alone = await rate(`${baseUrl}/bench/constant/${name}`);
    const answer = await rate(`${baseUrl}${url}`, member);
    const answerRatio = answer.rps / alone.rps;
    rows.push({
      figure: `signed-in ${url} req/s ÷ constant JSON (${Buffer.byteLength(constantBodies.get(name)!)} bytes)`,
      value: `${answerRatio.toFixed(2)} (${answer.rps.toFixed(0)} / ${alone.rps.toFixed(0)} req/s${errors(answer.errors)})`,
      goal: '≥ 0.5',
      holds: answerRatio >= 0.5 && answer.errors === 0,
    });
  }
}
