import type { FastifyReply } from 'fastify';
import { withErrorStatus } from '#server/plugins/error-handler.ts';
import type { ErrorCode } from '#shared/errors.ts';
import type { LaunchRefusal } from './lti-launch.ts';

/** A page of ours, never cached; `code` (a refusal) sets its status through the error table, none is a 200. */
export function sendPage(reply: FastifyReply, code: ErrorCode | null, body: string) {
  return (code ? withErrorStatus(reply, code) : reply)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(body);
}

const refusalTexts: Record<LaunchRefusal | 'cuenta-deshabilitada' | 'destino-invalido', string> = {
  'plataforma-desconocida':
    'Esta plataforma no está registrada en CxVet. Pide al administrador de tu curso que la registre.',
  'despliegue-desconocido': 'Este despliegue de la herramienta no está registrado en CxVet para tu plataforma.',
  'estado-invalido': 'No reconocemos este inicio de sesión. Vuelve a abrir la actividad desde tu curso.',
  'inicio-repetido': 'Este enlace de inicio ya se usó. Vuelve a abrir la actividad desde tu curso.',
  'inicio-vencido': 'El inicio de sesión tardó demasiado y venció. Vuelve a abrir la actividad desde tu curso.',
  'firma-invalida': 'La firma del mensaje de tu plataforma no es válida.',
  'token-vencido': 'El mensaje de tu plataforma venció. Vuelve a abrir la actividad desde tu curso.',
  'audiencia-invalida': 'El mensaje de tu plataforma no está dirigido a CxVet.',
  'nonce-invalido': 'El mensaje de tu plataforma no corresponde a este inicio de sesión.',
  'mensaje-invalido': 'El mensaje de tu plataforma está incompleto o no es de LTI 1.3.',
  'cuenta-deshabilitada': 'Tu cuenta de CxVet está deshabilitada. Escríbenos para saber más.',
  'destino-invalido': 'La actividad de tu curso no apunta a un contenido de CxVet disponible.',
};

export type RefusalPage = keyof typeof refusalTexts;

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** A plain page in CxVet's words: shown inside the platform's iframe, so no application shell. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · CxVet</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem;color:#1a1b1e}
label{display:block;margin:.75rem 0 .25rem}input,select{width:100%;padding:.5rem;font-size:1rem}
button{margin-top:1rem;padding:.6rem 1.2rem;font-size:1rem;background:#0b5cad;color:#fff;border:0;border-radius:4px}
.error{color:#b00020}</style></head>
<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

export function refusalPage(reason: RefusalPage): string {
  return page('No pudimos abrir CxVet', `<p>${escapeHtml(refusalTexts[reason])}</p>`);
}

/** An e-mail of the launch already has an account: its owner signs in once to link the two. */
export function linkPage(input: { linkId: string; email?: string; error?: string }): string {
  return page(
    'Vincula tu cuenta de CxVet',
    `<p>Tu correo ya tiene una cuenta en CxVet. Inicia sesión una vez para vincularla con tu plataforma; después entrarás directamente desde tu curso.</p>
${input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : ''}
<form method="post" action="/api/lti/link">
<input type="hidden" name="link" value="${escapeHtml(input.linkId)}">
<label for="email">Correo electrónico</label><input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(input.email ?? '')}">
<label for="password">Contraseña</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Vincular e ingresar</button>
</form>`,
  );
}

/** A signed message posted to the platform by the browser (deep linking's answer). */
export function autoPostPage(action: string, fields: Record<string, string>): string {
  const inputs = Object.entries(fields)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  return page(
    'Volviendo a tu curso',
    `<form id="lti-return" method="post" action="${escapeHtml(action)}">${inputs}<button type="submit">Continuar</button></form>
<script src="/api/lti/auto-submit.js"></script>`,
  );
}

/** Submits the page's form on load; a file of ours, since the policy allows no inline script. */
export const autoSubmitScript = "document.getElementById('lti-return')?.submit();\n";

export type PickOption = { kind: 'aula' | 'procedimiento' | 'diplomado'; id: string; title: string };

const kindLabels = { aula: 'Aula', procedimiento: 'Procedimiento', diplomado: 'Diplomado' } as const;

/** The professor picks what the course's new activity opens. */
export function pickPage(context: string, options: PickOption[]): string {
  const groups = (['aula', 'procedimiento', 'diplomado'] as const)
    .map((kind) => {
      const items = options.filter((option) => option.kind === kind);
      if (items.length === 0) return '';
      const rows = items
        .map((option) => `<option value="${kind}:${escapeHtml(option.id)}">${escapeHtml(option.title)}</option>`)
        .join('');
      return `<optgroup label="${kindLabels[kind]}">${rows}</optgroup>`;
    })
    .join('');
  return page(
    'Agrega contenido de CxVet a tu curso',
    `<form method="post" action="/api/lti/deep-linking">
<input type="hidden" name="context" value="${escapeHtml(context)}">
<label for="target">Contenido</label><select id="target" name="target" required>${groups}</select>
<button type="submit">Agregar al curso</button>
</form>`,
  );
}
