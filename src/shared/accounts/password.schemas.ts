import { z } from 'zod';
import { messages } from '../messages.ts';
import { minPasswordLength } from './accounts.rules.ts';

export const passwordResetRequestSchema = z.object({
  email: z.string().trim().min(1, messages.required),
});

/** The reset-link form (spec 1 §5 uses 'password' in these two messages). */
export const passwordResetConfirmSchema = z
  .object({
    code: z.string().min(1).max(200),
    password: z.string().min(minPasswordLength, messages.resetPasswordTooShort).max(128),
    confirmPassword: z.string(),
  })
  .refine((value) => value.password === value.confirmPassword, {
    path: ['confirmPassword'],
    message: messages.resetPasswordsDiffer,
  });

export const passwordChangeSchema = z.object({
  currentPassword: z.string().min(1, messages.required),
  newPassword: z.string().min(minPasswordLength, messages.passwordTooShort).max(128),
});
