// What every part of `npm run bench` shares: its settings (environment variables), a result row, and small helpers.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';

export const seconds = Number(process.env.BENCH_SECONDS ?? 3);
export const userCount = Number(process.env.BENCH_USERS ?? 100_000);
export const watchingMembers = Number(process.env.BENCH_WATCHING_MEMBERS ?? 200);
export const watchingSeconds = Number(process.env.BENCH_WATCHING_SECONDS ?? 20);
// BENCH_ONLY=server: only the `npm start` figures (start, idle RSS, the users report), no Chromium and no backup
export const serverOnly = process.env.BENCH_ONLY === 'server';
// BENCH_ONLY=media: only the media rows (queries per range in process; ranges against nginx from `npm start`, with its
// start and idle rows), about 2 minutes per database
export const mediaOnly = process.env.BENCH_ONLY === 'media';
// BENCH_ONLY=members: only the guest and signed-in answers against constant JSON of the same size, in process
export const membersOnly = process.env.BENCH_ONLY === 'members';
// BENCH_ONLY=evening: only the busy evening (the users, the class, then `npm start` under the evening's load)
export const eveningOnly = process.env.BENCH_ONLY === 'evening';
// BENCH_ONLY=member-pages: only a signed-in member's pages and the console's users list in Lighthouse (PGlite)
export const memberPagesOnly = process.env.BENCH_ONLY === 'member-pages';
export const password = 'Bench1234';
export const origin = 'http://localhost:3000';
const benchStarted = performance.now();
export const step = (what: string) =>
  console.error(`[${((performance.now() - benchStarted) / 1000).toFixed(0).padStart(4)} s] ${what}`);

export type Row = { figure: string; value: string; goal: string; holds: boolean | null };
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

export async function rate(url: string, headers: Record<string, string> = {}, connections = 10) {
  const result = await autocannon({ url, connections, duration: seconds, headers });
  return { rps: result.requests.average, errors: result.errors + result.non2xx };
}

export async function signIn(baseUrl: string, email: string, from = origin): Promise<string> {
  const response = await fetch(`${baseUrl}/api/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: from },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`sign-in of ${email} failed: ${response.status}`);
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');
}

export function rssMiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? NaN);
  return kb / 1024;
}
