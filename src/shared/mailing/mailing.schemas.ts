import { z } from 'zod';
import { messages } from '../messages.ts';

const noMessageNorImage = 'Debes agregar un mensaje o seleccionar una imagen';

/** Spec 2 §5: subject, title and message required; an image may stand in for the message. */
export const bulkMailSchema = z
  .object({
    // a line break in a header would let the text add headers
    subject: z
      .string()
      .trim()
      .min(1, messages.requiredDot)
      .max(200)
      .transform((value) => value.replace(/[\r\n]+/g, ' ')),
    title: z.string().trim().min(1, messages.requiredDot).max(200),
    message: z.string().trim().max(20_000).default(''),
    image: z.string().max(500).nullable().default(null),
  })
  .refine((value) => value.message.length > 0 || value.image !== null, {
    path: ['message'],
    message: noMessageNorImage,
  });
export type BulkMailInput = z.input<typeof bulkMailSchema>;

export const bulkMailCreatedSchema = z.object({ id: z.string(), recipients: z.number().int() });

export const bulkMailTexts = {
  sending: messages.contactSending,
  sent: 'Mensaje enviado correctamente.',
  error: messages.contactFailedInline,
  notice: 'Este correo se enviará a todos los usuarios registrados que aceptaron recibir correos promocionales.',
} as const;
