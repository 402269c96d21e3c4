import type { FastifyInstance } from 'fastify';
import type { Db } from '#server/db/client.ts';
import type { Auth } from './features/accounts/auth.ts';
import type { AccountsService } from './features/accounts/accounts.service.ts';
import type { MembershipService } from './features/membership/membership.service.ts';
import type { PrivacyService } from './features/privacy/privacy.service.ts';
import type { MailingService } from './features/mailing/mailing.service.ts';
import type { UploadsService } from './features/uploads/uploads.service.ts';
import type { ClassroomMembersService } from './features/classrooms/classroom-members.service.ts';
import type { DiplomasAdminService } from './features/diplomas/diplomas.admin.service.ts';
import type { ClassroomProgressService } from './features/classrooms/classroom-progress.service.ts';
import type { DiplomaProgressService } from './features/diplomas/diploma-progress.service.ts';
import type { CertificatesService } from './features/diplomas/certificates.service.ts';
import type { CreditsService } from './features/credits/credits.service.ts';
import type { CreditRecordsService } from './features/credits/credit-records.service.ts';
import { registerCreditAdminRoutes } from './features/credits/credits.admin.routes.ts';
import type { ProcedureCreditsService } from './features/credits/procedure-credits.service.ts';
import { registerProcedureCreditAdminRoutes } from './features/credits/procedure-credits.routes.ts';
import type { BackupsService } from './features/backups/backups.service.ts';
import type { RenditionsService } from './features/renditions/renditions.service.ts';
import type { JobRunner } from './services/jobs.ts';
import { createAdminClassroomsService } from './features/classrooms/classrooms.admin.service.ts';
import { registerAdminClassroomRoutes } from './features/classrooms/classrooms.admin.routes.ts';
import { createAdminUsersService } from './features/accounts/users.admin.service.ts';
import { createManualPremiumService } from './features/membership/manual-premium.admin.service.ts';
import { createStatisticsService } from './features/analytics/statistics.admin.service.ts';
import { registerAdminUserRoutes } from './features/accounts/users.admin.routes.ts';
import { registerManualPremiumRoutes } from './features/membership/manual-premium.admin.routes.ts';
import { createPricesService } from './features/payments/prices.service.ts';
import { registerPricesAdminRoutes } from './features/payments/prices.admin.routes.ts';
import { registerFacturasAdminRoutes } from './features/facturas/facturas.routes.ts';
import type { FacturasService } from './features/facturas/facturas.service.ts';
import { registerStatisticsRoutes } from './features/analytics/statistics.admin.routes.ts';
import { registerAdminMailingRoutes } from './features/mailing/mailing.admin.routes.ts';
import { registerOutboxRoutes } from './features/mailing/outbox.admin.routes.ts';
import { registerRenditionAdminRoutes } from './features/renditions/renditions.admin.routes.ts';
import { registerUploadRoutes } from './features/uploads/uploads.routes.ts';
import { createAdminProceduresService } from './features/catalog/procedures.admin.service.ts';
import { createAdminTagsService } from './features/catalog/tags.admin.service.ts';
import { createAdminEventsService } from './features/events/events.admin.service.ts';
import { createAdminOrganizationsService } from './features/organizations/organizations.admin.service.ts';
import { createAdminLandingService } from './features/landing/landing.admin.service.ts';
import { createAdminNewsletterService } from './features/landing/newsletter.admin.service.ts';
import { registerAdminProcedureRoutes } from './features/catalog/procedures.admin.routes.ts';
import { registerAdminTagRoutes } from './features/catalog/tags.admin.routes.ts';
import { registerAdminEventRoutes } from './features/events/events.admin.routes.ts';
import { registerAdminOrganizationRoutes } from './features/organizations/organizations.admin.routes.ts';
import { registerAdminLandingRoutes } from './features/landing/landing.admin.routes.ts';
import { registerDiplomasAdminRoutes } from './features/diplomas/diplomas.admin.routes.ts';
import { registerCertificateAdminRoutes } from './features/diplomas/certificates.routes.ts';
import { registerPrivacyAdminRoutes } from './features/privacy/privacy.routes.ts';
import { registerBackupAdminRoutes } from './features/backups/backups.routes.ts';
import type { Lti } from './features/lti/lti.ts';
import { registerLtiAdminRoutes } from './features/lti/lti-platforms.admin.ts';

/** Every /api/admin route, registered inside the Admin scope (plugins/admin-scope.ts): one guard for all of them. */
export async function registerAdminConsole(
  admin: FastifyInstance,
  deps: {
    db: Db;
    timeZone: string;
    auth: Auth;
    accounts: AccountsService;
    membership: MembershipService;
    privacy: PrivacyService;
    mailing: MailingService;
    uploads: UploadsService;
    classroomMembers: ClassroomMembersService;
    classroomProgress: ClassroomProgressService;
    diplomasAdmin: DiplomasAdminService;
    diplomaProgress: DiplomaProgressService;
    certificates: CertificatesService;
    credits: CreditsService;
    creditRecords: CreditRecordsService;
    procedureCredits: ProcedureCreditsService;
    backups: BackupsService;
    renditions: RenditionsService;
    jobs: JobRunner;
    videoJobs: JobRunner;
    lti: Lti;
    facturas: FacturasService;
  },
) {
  const {
    db,
    timeZone,
    auth,
    accounts,
    membership,
    privacy,
    mailing,
    uploads,
    classroomMembers,
    classroomProgress,
    diplomasAdmin,
    diplomaProgress,
    certificates,
    credits,
    creditRecords,
    procedureCredits,
    backups,
    renditions,
    jobs,
    videoJobs,
    lti,
  } = deps;
  registerOutboxRoutes(admin, { db });
  registerAdminUserRoutes(admin, {
    db,
    timeZone: timeZone,
    users: createAdminUsersService({
      db,
      auth,
      accounts,
      recordDeletion: (userId) => privacy.recordDeletion(userId),
      anonymize: (userId, actorId) =>
        privacy.anonymize(userId, {
          certificates: 'keep',
          actorId,
          bySelf: false,
          reason: 'Eliminado desde la consola de administración',
        }),
    }),
  });
  registerManualPremiumRoutes(admin, { manualPremium: createManualPremiumService({ db, membership }) });
  registerPricesAdminRoutes(admin, { prices: createPricesService({ db }) });
  registerFacturasAdminRoutes(admin, { facturas: deps.facturas, jobs: deps.jobs });
  registerStatisticsRoutes(admin, { statistics: createStatisticsService({ db }) });
  registerAdminMailingRoutes(admin, { mailing });
  await registerUploadRoutes(admin, { uploads });
  registerAdminProcedureRoutes(admin, { procedures: createAdminProceduresService({ db, uploads }) });
  registerAdminTagRoutes(admin, { tags: createAdminTagsService({ db }) });
  registerAdminEventRoutes(admin, { events: createAdminEventsService({ db, uploads, timeZone: timeZone }) });
  registerAdminOrganizationRoutes(admin, { organizations: createAdminOrganizationsService({ db, uploads }) });
  registerAdminLandingRoutes(admin, {
    landing: createAdminLandingService({ db, uploads }),
    newsletter: createAdminNewsletterService({ db, uploads }),
  });
  registerAdminClassroomRoutes(admin, {
    db,
    classrooms: createAdminClassroomsService({ db, uploads, members: classroomMembers }),
    members: classroomMembers,
    progress: classroomProgress,
  });
  registerDiplomasAdminRoutes(admin, { diplomasAdmin, progress: diplomaProgress });
  registerCertificateAdminRoutes(admin, { certificates });
  registerCreditAdminRoutes(admin, { credits, records: creditRecords });
  registerProcedureCreditAdminRoutes(admin, { procedureCredits, records: creditRecords });
  registerPrivacyAdminRoutes(admin, { privacy, jobs });
  registerBackupAdminRoutes(admin, { backups, runJobs: () => void jobs.runDue().catch(() => {}) });
  registerRenditionAdminRoutes(admin, { renditions, runJobs: () => void videoJobs.runDue().catch(() => {}) });
  registerLtiAdminRoutes(admin, {
    db,
    key: lti.key,
    publicUrl: lti.publicUrl,
    platformsChanged: lti.platformsChanged,
    registration: lti.registration,
  });
}
