import { escapeHtml, layoutMail } from '#server/services/mail-layout.ts';
import type { Mailer } from '#server/services/mail.ts';

function passwordResetMail(data: { name: string; link: string }) {
  return {
    subject: 'Restablece tu contraseña de CxVet',
    text: `Hola ${data.name}:\n\nRecibimos una solicitud para asignar una nueva contraseña a tu cuenta de CxVet. Abre este enlace (válido durante una hora y de un solo uso):\n\n${data.link}\n\nSi no la pediste, ignora este correo.`,
    html: layoutMail(
      'Restablece tu contraseña',
      `<p>Hola ${escapeHtml(data.name)}:</p>
<p>Recibimos una solicitud para asignar una nueva contraseña a tu cuenta de CxVet. El enlace es válido durante una hora y de un solo uso.</p>
<p><a href="${escapeHtml(data.link)}">Asignar nueva contraseña</a></p>
<p>Si no la pediste, ignora este correo.</p>`,
    ),
  };
}

/** better-auth hands us the token; the link follows the spec's /reasignar_password?mode&oobCode&apiKey. */
export function createResetMailSender(deps: { mailer: Mailer; publicUrl: string }) {
  return async (data: { email: string; name: string; token: string }) => {
    const link = new URL('/reasignar_password', deps.publicUrl);
    link.searchParams.set('mode', 'resetPassword');
    link.searchParams.set('oobCode', data.token);
    link.searchParams.set('apiKey', 'cxvet');
    await deps.mailer.send({ to: data.email, ...passwordResetMail({ name: data.name, link: link.toString() }) });
  };
}
