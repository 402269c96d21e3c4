import { z } from 'zod';
import { messages } from '../messages.ts';
import { fileKey, recordId } from '../records.schemas.ts';
import { textColors } from './landing.rules.ts';

// ---------- landing photos ----------

const landingSlideInputSchema = z.object({
  id: recordId,
  media: fileKey(),
  isVideo: z.boolean(),
  title: z.string().trim().max(200),
  subtitle: z.string().trim().max(400),
  textColor: z.enum(textColors),
});
export type LandingSlideInput = z.infer<typeof landingSlideInputSchema>;

export const landingInputSchema = z.object({
  slideSeconds: z.number({ error: messages.requiredDot }).int().min(1).max(600),
  slides: z.array(landingSlideInputSchema).max(50),
});
export type LandingInput = z.infer<typeof landingInputSchema>;

// ---------- newsletter ----------

export const newsletterInputSchema = z.object({ image: fileKey() });
export const adminNewsletterSchema = z.object({ image: z.string().nullable() });
export type AdminNewsletter = z.infer<typeof adminNewsletterSchema>;
