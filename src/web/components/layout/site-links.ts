import type { CurrentUser } from '#shared/accounts/accounts.schemas.ts';
import { isAdmin } from '#shared/accounts/accounts.rules.ts';
import { paths } from '#web/paths.ts';

export type SiteLink = { label: string; to: string };

/** Links of the header's main navigation, by audience. */
export function mainLinks(user: CurrentUser | null): SiteLink[] {
  const links: SiteLink[] = [
    { label: 'Inicio', to: paths.index },
    { label: 'Procedimientos', to: paths.catalog },
    { label: 'FAQ', to: paths.faq },
    { label: 'Eventos', to: paths.events },
    { label: 'Nosotros', to: paths.about },
    { label: 'Contacto', to: paths.contact },
  ];
  if (!user) return links;
  if (user.hasPremiumAccess || isAdmin(user)) {
    links.push({ label: 'Cursos y diplomados', to: paths.myDiplomas });
  }
  links.push({ label: 'Aulas Virtuales', to: paths.myClassrooms });
  if (user.isClassroomAdmin) links.push({ label: 'Administrar aula', to: paths.classroomAdmin });
  if (user.isDiplomaAdmin) links.push({ label: 'Administrar diplomado', to: paths.diplomaAdmin });
  return links;
}

/** Account links of the header; logout is an action, not a link. */
export function accountLinks(user: CurrentUser | null): SiteLink[] {
  if (!user) {
    return [
      { label: 'Registro', to: paths.signUp },
      { label: 'Iniciar sesión', to: paths.login },
    ];
  }
  const links: SiteLink[] = [];
  if (isAdmin(user)) {
    links.push({ label: 'Administrador', to: paths.admin });
    links.push({ label: 'Fotos landing', to: paths.adminLandingPhotos });
  }
  links.push({ label: 'Mis favoritos', to: paths.myFavorites });
  links.push({ label: 'Mi perfil', to: paths.profile });
  return links;
}

export const footerLinks: SiteLink[] = [
  { label: 'Nosotros', to: paths.about },
  { label: 'Eventos', to: paths.events },
  { label: 'FAQ', to: paths.faq },
  { label: 'Contacto', to: paths.contact },
  { label: 'Términos y condiciones', to: paths.terms },
  { label: 'Aviso de privacidad', to: paths.privacy },
];
