/** The Vite dev server (`npm run dev`). */
const viteDevOrigin = 'http://localhost:5173';

const loopbackHosts = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Origins whose browsers may post to us (CSRF check and better-auth). Production trusts PUBLIC_URL alone; development
 * also trusts the Vite dev server and every loopback alias of our own port, so http://127.0.0.1:3000 signs in as well
 * as http://localhost:3000.
 */
export function trustedOrigins(config: { publicUrl: string; port: number; production: boolean }): string[] {
  const origins = [config.publicUrl];
  if (!config.production) {
    origins.push(viteDevOrigin);
    for (const host of loopbackHosts) origins.push(`http://${host}:${config.port}`);
  }
  return [...new Set(origins)];
}
