import { paths } from '#web/paths.ts';

/** Every console area of the three specs; those not built yet show 'Página no encontrada' in the frame. */
export const adminNavLinks: { label: string; to: string }[] = [
  { label: 'Procedimientos', to: paths.adminProcedures },
  { label: 'Etiquetas', to: paths.adminTags },
  { label: 'Eventos', to: paths.adminEvents },
  { label: 'Usuarios', to: paths.adminUsers },
  { label: 'Premium manual', to: paths.adminManualPremium },
  { label: 'Precios en pesos', to: paths.adminPrices },
  { label: 'Facturas', to: paths.adminFacturas },
  { label: 'Organizaciones', to: paths.adminOrganizations },
  { label: 'Plataformas LTI', to: paths.adminLti },
  { label: 'Fotos landing', to: paths.adminLandingPhotos },
  { label: 'Newsletter', to: paths.adminNewsletter },
  { label: 'Mailing', to: paths.adminMailing },
  { label: 'Estadísticas', to: paths.adminStatistics },
  { label: 'Correos enviados', to: paths.adminOutbox },
  { label: 'Respaldos', to: paths.adminBackups },
  { label: 'Aulas', to: paths.adminClassrooms },
  { label: 'Diplomados', to: paths.adminDiplomas },
];

/** The nav entry a path belongs to: the longest link that prefixes it (case-insensitive, as routes match). */
export function activeNavLink(pathname: string): string | null {
  const path = pathname.toLowerCase();
  const matches = adminNavLinks.filter(
    (link) => path === link.to.toLowerCase() || path.startsWith(`${link.to.toLowerCase()}/`),
  );
  const best = matches.sort((a, b) => b.to.length - a.to.length)[0];
  if (best) return best.to;
  return path === paths.admin || path === paths.adminHome ? paths.adminProcedures : null;
}
