import { describe, expect, it } from 'vitest';
import { organizationInputSchema } from './organizations.admin.schemas.ts';

describe('organizationInputSchema', () => {
  it('refuses a null, array or bare body as invalid instead of throwing', () => {
    for (const body of [null, [], 'texto', 42, undefined]) {
      const result = organizationInputSchema.safeParse(body);
      expect(result.success, JSON.stringify(body)).toBe(false);
    }
  });

  it('still names every bad field of an Empresa at once', () => {
    const result = organizationInputSchema.safeParse({
      title: '',
      type: 'Empresa',
      logoImage: '',
      promoImage: null,
      promoLink: null,
    });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((issue) => issue.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['title', 'promoImage', 'promoLink']));
  });
});
