import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';

/** Debian's nginx, or null when it is not installed (tests skip, the bench prints our figure alone). */
export const nginxBinary = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((candidate) => existsSync(candidate)) ?? null;

/** A port free right now on the loopback (nginx cannot be told to pick one and report it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * deploy/nginx.conf with this machine's values: the proxied app, the upload folder and a loopback port; the tests
 * and the bench run the documented file, not a copy of it.
 */
export async function deployedNginxConfig(options: {
  appPort: number;
  uploadsDir: string;
  port: number;
}): Promise<string> {
  let text = await readFile(path.join(import.meta.dirname, '../../../deploy/nginx.conf'), 'utf8');
  for (const [from, to] of [
    ['server 127.0.0.1:3000;', `server 127.0.0.1:${options.appPort};`],
    ['listen 80;', `listen 127.0.0.1:${options.port};`],
    ['alias /srv/cxvet/data/uploads/;', `alias ${options.uploadsDir.replace(/\/?$/, '/')};`],
  ]) {
    if (!text.includes(from!)) throw new Error(`deploy/nginx.conf no longer has "${from}"`);
    text = text.replace(from!, to!);
  }
  return text;
}

/** nginx in the foreground with `httpConfig` inside its http block, one worker; resolves once it answers. */
export async function startNginx(options: {
  workDir: string;
  port: number;
  httpConfig: string;
}): Promise<{ url: string; /** The master process. */ pid: number; stop: () => Promise<void> }> {
  if (!nginxBinary) throw new Error('nginx is not installed');
  const { workDir } = options;
  const conf = path.join(workDir, 'nginx.conf');
  // started by root, nginx's worker drops to `nobody`, which cannot enter our 0700 temp folders: it must stay root
  const user = process.getuid?.() === 0 ? 'user root;' : '';
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `${kind}_temp_path ${workDir}/${kind};`)
    .join(' ');
  await writeFile(
    conf,
    `daemon off; ${user} worker_processes 1; pid ${workDir}/nginx.pid; error_log ${workDir}/nginx-error.log;
events { worker_connections 256; }
http { access_log off; ${temp}
  # no MIME table: what nginx sends for /media must carry the app's Content-Type, so the tests can tell
${options.httpConfig}
}
`,
  );
  const child = spawn(nginxBinary, ['-c', conf, '-p', workDir], { stdio: ['ignore', 'ignore', 'pipe'] });
  let errors = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (errors += text));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const url = `http://127.0.0.1:${options.port}`;
  for (let attempt = 0; attempt < 50; attempt++) {
    if (child.exitCode !== null) break;
    if (
      await fetch(url, { method: 'HEAD' }).then(
        () => true,
        () => false,
      )
    ) {
      return {
        url,
        pid: child.pid!,
        stop: async () => {
          child.kill();
          await exited;
        },
      };
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill();
  throw new Error(
    `nginx did not start: ${errors}${await readFile(path.join(workDir, 'nginx-error.log'), 'utf8').catch(() => '')}`,
  );
}
