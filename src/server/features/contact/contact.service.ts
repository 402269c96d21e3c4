import { contactMessages } from '#server/db/schema/index.ts';
import type { ContactInput } from '#shared/contact/contact.schemas.ts';
import { isSingleAddress, type MailMessage, type QueuedMailer } from '#server/services/mail.ts';
import { escapeHtml, layoutMail } from '#server/services/mail-layout.ts';

export function createContactService(deps: { mailer: QueuedMailer; contactEmail: string }) {
  function contactMail(input: ContactInput): MailMessage {
    // header fields come from a visitor: keep them on one line
    const subject = `Contacto CxVet: ${input.subject}`.replace(/[\r\n]+/g, ' ').slice(0, 200);
    return {
      to: deps.contactEmail,
      subject,
      // the operator's 'Reply' goes to the writer; the schema already refused anything but one address
      ...(isSingleAddress(input.email) ? { replyTo: input.email } : {}),
      text: `Nombre: ${input.name}\nCorreo: ${input.email}\nAsunto: ${input.subject}\n\n${input.message}`,
      html: layoutMail(
        'Nuevo mensaje de contacto',
        `<p><strong>Nombre:</strong> ${escapeHtml(input.name)}<br><strong>Correo:</strong> ${escapeHtml(input.email)}<br><strong>Asunto:</strong> ${escapeHtml(input.subject)}</p><p style="white-space:pre-wrap">${escapeHtml(input.message)}</p>`,
      ),
    };
  }

  /** Stores the message and queues its mail to the site's contact address in one transaction (decision 067). */
  async function send(input: ContactInput): Promise<void> {
    await deps.mailer.transaction(async (tx, queue) => {
      await tx.insert(contactMessages).values(input);
      await queue(contactMail(input));
    });
  }
  return { send };
}

export type ContactService = ReturnType<typeof createContactService>;
