export const organizationTypes = ['Empresa', 'Universidad'] as const;
export type OrganizationType = (typeof organizationTypes)[number];
