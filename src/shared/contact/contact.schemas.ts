import { z } from 'zod';
import { messages } from '../messages.ts';

const required = z.string().trim().min(1, messages.requiredDot).max(5000);

/** Spec 1 §5: four required fields, a standard e-mail pattern, no length bounds beyond abuse limits. */
export const contactSchema = z.object({
  name: required.max(200),
  email: z.string().trim().min(1, messages.requiredDot).max(254).pipe(z.email(messages.invalidEmail)),
  subject: required.max(300),
  message: required,
});
export type ContactInput = z.infer<typeof contactSchema>;
