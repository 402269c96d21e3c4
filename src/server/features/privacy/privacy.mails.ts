import { escapeHtml, layoutMail } from '#server/services/mail-layout.ts';

const dateText = (date: Date) =>
  new Intl.DateTimeFormat('es-MX', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' }).format(date);

/** The export is ready: the link leads to the site, which asks for the member's session. */
export function exportReadyMail(data: { name: string; link: string; expiresAt: Date }) {
  const until = dateText(data.expiresAt);
  return {
    subject: 'Tus datos de CxVet están listos para descargar',
    text: `Hola ${data.name}:\n\nPreparamos el archivo con todos los datos que CxVet guarda sobre ti. Descárgalo desde tu perfil (tendrás que iniciar sesión) antes del ${until}:\n\n${data.link}\n\nSi no lo pediste tú, cambia tu contraseña.`,
    html: layoutMail(
      'Tus datos están listos',
      `<p>Hola ${escapeHtml(data.name)}:</p>
<p>Preparamos el archivo con todos los datos que CxVet guarda sobre ti. Descárgalo desde tu perfil antes del ${escapeHtml(until)}; tendrás que iniciar sesión.</p>
<p><a href="${escapeHtml(data.link)}">Descargar mis datos</a></p>
<p>Si no lo pediste tú, cambia tu contraseña.</p>`,
    ),
  };
}

/** The last mail to an account, sent to the address it had before it was anonymised. */
export function accountDeletedMail(data: { name: string; bySelf: boolean }) {
  const how = data.bySelf
    ? 'Como lo pediste, eliminamos tu cuenta de CxVet.'
    : 'Atendiendo tu solicitud, un administrador eliminó tu cuenta de CxVet.';
  const body = `${how} Borramos tu nombre, correo, teléfono, ciudad y preferencias; de tus pagos solo conservamos montos y fechas, sin tus datos, porque la ley contable lo exige. Ya no podrás iniciar sesión con esta cuenta, y puedes registrarte de nuevo con este correo cuando quieras.`;
  return {
    subject: 'Tu cuenta de CxVet fue eliminada',
    text: `Hola ${data.name}:\n\n${body}\n\nEste es el último correo que te enviamos.`,
    html: layoutMail(
      'Tu cuenta fue eliminada',
      `<p>Hola ${escapeHtml(data.name)}:</p>
<p>${escapeHtml(body)}</p>
<p>Este es el último correo que te enviamos.</p>`,
    ),
  };
}
