/** Every route pattern of the web app, as the specs spell the Spanish URLs. */
export const paths = {
  home: '/',
  index: '/index',
  catalog: '/procedimientos',
  catalogFiltered: '/procedimientos/:type/:filter',
  procedure: '/procedimiento/:id',
  events: '/eventos',
  faq: '/FAQ',
  about: '/about',
  contact: '/contacto',
  terms: '/tos',
  privacy: '/aviso_privacidad',

  signUp: '/registro',
  signUpFinish: '/registro-finalizar',
  login: '/login',
  loginPassword: '/login/password',
  passwordRecovery: '/login/recuperar_password',
  passwordReset: '/reasignar_password',

  profile: '/perfil',
  profileAccount: '/perfil/usuario',
  profilePayment: '/perfil/pago',
  profilePrivacy: '/perfil/privacidad',
  profileDevices: '/perfil/dispositivos',

  myFavorites: '/mis-favoritos',
  myDiplomas: '/mis-diplomados',
  myDiploma: '/mis-diplomados/diplomado/:id',
  myCxVetDiploma: '/mis-diplomados/diplomado-CxVet/:id',
  diplomaPreview: '/mis-diplomados/diplomado-preview/:id',
  diplomaFinalize: '/mis-diplomados/finalize/:id',
  certificateVerification: '/certificados/:code',
  myClassrooms: '/mis-aulas',
  myClassroom: '/mis-aulas/aula/:id',
  classroomAdmin: '/administrar-aula',
  classroomAdminDetail: '/administrar-aula/aula/:id',
  diplomaAdmin: '/administrar-diplomado',
  diplomaAdminDetail: '/administrar-diplomado/diplomado/:id',

  admin: '/admin',
  adminHome: '/admin/home',
  adminLogin: '/admin/login',
  adminProcedures: '/admin/procedures',
  adminProcedure: '/admin/procedures/procedure/:id?',
  adminTags: '/admin/tags',
  adminTag: '/admin/tags/tag/:id?',
  adminEvents: '/admin/events',
  adminEvent: '/admin/events/event/:id?',
  // Route matching is case-insensitive, so the list's /admin/Users/User/{id} links match these.
  adminUsers: '/admin/users',
  adminUser: '/admin/users/user/:id?',
  adminManualPremium: '/admin/users/premium-manual',
  adminManualPremiumUpgrade: '/admin/users/actualizar-premium-manual',
  adminManualPremiumDowngrade: '/admin/users/downgrade-premium-manual',
  adminMailing: '/admin/mailing',
  adminStatistics: '/admin/estadisticas',
  adminNewsletter: '/admin/newsletter',
  adminOrganizations: '/admin/organizations',
  adminOrganizationCreate: '/admin/organizations/crear-organization',
  adminOrganization: '/admin/organizations/organization/:id',
  adminLandingPhotos: '/admin/landing/fotos',
  adminOutbox: '/admin/correos',
  adminBackups: '/admin/respaldos',
  adminClassrooms: '/admin/aulas',
  adminClassroomCreate: '/admin/aulas/crear-aula',
  adminClassroom: '/admin/aulas/aula/:id',
  adminDiplomas: '/admin/diplomados',
  adminDiplomaCreate: '/admin/diplomados/crear-diplomado',
  adminDiploma: '/admin/diplomados/diplomado/:id',
  adminDiplomaPreview: '/admin/diplomados/diplomado-vista-previa/:id',
} as const;

export type CatalogFilterType = 'kynd' | 'tag' | 'type' | 'aula';

const segment = (value: string) => encodeURIComponent(value);
const withOptionalId = (base: string, id?: string) => (id ? `${base}/${segment(id)}` : base);

/** Links with parameters; plain routes are used straight from `paths`. */
export const href = {
  catalogFiltered: (type: CatalogFilterType, filter: string) =>
    `/procedimientos/${type}/${segment(filter)}`,
  procedure: (id: string) => `/procedimiento/${segment(id)}`,

  myDiploma: (id: string) => `/mis-diplomados/diplomado/${segment(id)}`,
  myCxVetDiploma: (id: string) => `/mis-diplomados/diplomado-CxVet/${segment(id)}`,
  diplomaPreview: (id: string) => `/mis-diplomados/diplomado-preview/${segment(id)}`,
  diplomaFinalize: (id: string) => `/mis-diplomados/finalize/${segment(id)}`,
  certificateVerification: (code: string) => `/certificados/${segment(code)}`,
  myClassroom: (id: string) => `/mis-aulas/aula/${segment(id)}`,
  classroomAdminDetail: (id: string) => `/administrar-aula/aula/${segment(id)}`,
  diplomaAdminDetail: (id: string) => `/administrar-diplomado/diplomado/${segment(id)}`,

  adminProcedure: (id?: string) => withOptionalId('/admin/procedures/procedure', id),
  adminTag: (id?: string) => withOptionalId('/admin/tags/tag', id),
  adminEvent: (id?: string) => withOptionalId('/admin/events/event', id),
  adminUser: (id?: string) => withOptionalId('/admin/Users/User', id),
  adminOrganization: (id: string) => `/admin/organizations/organization/${segment(id)}`,
  adminClassroom: (id: string) => `/admin/aulas/aula/${segment(id)}`,
  adminDiploma: (id: string) => `/admin/diplomados/diplomado/${segment(id)}`,
  adminDiplomaPreview: (id: string) => `/admin/diplomados/diplomado-vista-previa/${segment(id)}`,
};
