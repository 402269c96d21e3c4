import { z } from 'zod';
import { procedureCardSchema } from '../catalog/catalog.schemas.ts';
import { textColors } from './landing.rules.ts';

const landingSlideSchema = z.object({
  id: z.string(),
  mediaUrl: z.string(),
  isVideo: z.boolean(),
  title: z.string(),
  subtitle: z.string(),
  textColor: z.enum(textColors),
});
export type LandingSlide = z.infer<typeof landingSlideSchema>;

const sponsorSchema = z.object({
  id: z.string(),
  title: z.string(),
  logoUrl: z.string(),
  link: z.string().nullable(),
});

export const landingSchema = z.object({
  slides: z.array(landingSlideSchema),
  slideSeconds: z.number().int(),
  sampleProcedures: z.array(procedureCardSchema),
  sponsors: z.array(sponsorSchema),
  /** Public universities that endorse CxVet: logos linking to their sites. */
  endorsements: z.array(sponsorSchema),
});
export type Landing = z.infer<typeof landingSchema>;
