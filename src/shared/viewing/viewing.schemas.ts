import { z } from 'zod';

export const viewingTokenSchema = z.object({ token: z.string() });

// defined with the rules so that browser code can use them without loading zod
export { tokenReplacedEvent } from './viewing.rules.ts';
