import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { fileURLToPath } from 'node:url';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { FileStorage } from './services/storage.ts';
import { createQueuedMailer, mailJobKind, sendQueuedMail, type MailTransport } from './services/mail.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerAuthorization } from './plugins/authorization.ts';
import { registerWebApp } from './plugins/web-app.ts';
import { registerSameOriginCheck } from './plugins/same-origin.ts';
import { trustedOrigins } from './plugins/trusted-origins.ts';
import { loggerOptions, registerRequestLog } from './plugins/request-log.ts';
import { registerControlCharacterCheck } from './plugins/control-characters.ts';
import { createRateCounter, rateLimitStore } from './services/rate-counter.ts';
import { forbidUnguardedAdminRoutes, registerAdminScope } from './plugins/admin-scope.ts';
import { createAuth } from './features/accounts/auth.ts';
import { createAccountsService } from './features/accounts/accounts.service.ts';
import { createResetMailSender } from './features/accounts/accounts.mails.ts';
import { registerAccountRoutes } from './features/accounts/accounts.routes.ts';
import { registerHealthRoutes } from './features/health/health.routes.ts';
import { createClassroomsService } from './features/classrooms/classrooms.service.ts';
import { createClassroomMembersService } from './features/classrooms/classroom-members.service.ts';
import { createManagedClassroomsService } from './features/classrooms/classrooms.managed.service.ts';
import { registerClassroomRoutes } from './features/classrooms/classrooms.routes.ts';
import { registerManagedClassroomRoutes } from './features/classrooms/classrooms.managed.routes.ts';
import { createClassroomProgressService } from './features/classrooms/classroom-progress.service.ts';
import { createDiplomasService } from './features/diplomas/diplomas.service.ts';
import { createMediaService } from './features/media/media.service.ts';
import { registerMediaRoutes } from './features/media/media.routes.ts';
import type { HandOverLane } from './features/media/media-hand-over-lane.ts';
import { createAnalyticsService } from './features/analytics/analytics.service.ts';
import { createCatalogService } from './features/catalog/catalog.service.ts';
import { registerCatalogRoutes } from './features/catalog/catalog.routes.ts';
import { createViewingService } from './features/viewing/viewing.service.ts';
import { createDevicesService } from './features/accounts/devices.service.ts';
import { registerDeviceRoutes } from './features/accounts/devices.routes.ts';
import { registerViewingRoutes } from './features/viewing/viewing.routes.ts';
import { createWatchMarksService } from './features/watching/watch-marks.service.ts';
import { createWatchingService } from './features/watching/watching.service.ts';
import { createWatchedTimeService } from './features/watching/watched-time.service.ts';
import { registerWatchingRoutes } from './features/watching/watching.routes.ts';
import { createEventsService } from './features/events/events.service.ts';
import { registerEventRoutes } from './features/events/events.routes.ts';
import { createLandingService } from './features/landing/landing.service.ts';
import { registerLandingRoutes } from './features/landing/landing.routes.ts';
import { createContactService } from './features/contact/contact.service.ts';
import { registerContactRoutes } from './features/contact/contact.routes.ts';
import rateLimit from '@fastify/rate-limit';
import { createMailingService } from './features/mailing/mailing.service.ts';
import { registerMailingPublicRoutes } from './features/mailing/mailing.routes.ts';
import type { PaymentProvider } from './services/payments/payment-provider.ts';
import type { SubscriptionOperations } from './services/payments/provider-registry.ts';
import { mercadoPagoServices } from './mercadopago-services.ts';
import { paymentJobHandlers, paymentProvidersFor } from './payment-providers.ts';
import { createJobRunner, jobsPruneKind } from './services/jobs.ts';
import { maintainDatabase, maintenanceJobKind } from './db/maintenance.ts';
import { createRenditionsService, transcodeJobKind } from './features/renditions/renditions.service.ts';
import { findVideoTools } from './features/renditions/video-tools.ts';
import { createMembershipService } from './features/membership/membership.service.ts';
import { registerMembershipRoutes } from './features/membership/membership.routes.ts';
import { createPaymentsService } from './features/payments/payments.service.ts';
import { registerPaymentRoutes } from './features/payments/payments.routes.ts';
import { createSignUpService } from './features/accounts/signup.service.ts';
import { createProfileService } from './features/accounts/profile.service.ts';
import { registerSignUpAndProfileRoutes } from './features/accounts/profile.routes.ts';
import { createUploadsService } from './features/uploads/uploads.service.ts';
import { createDiplomasAdminService } from './features/diplomas/diplomas.admin.service.ts';
import { createManagedDiplomasService } from './features/diplomas/diplomas.managed.service.ts';
import { registerManagedDiplomaRoutes } from './features/diplomas/diplomas.managed.routes.ts';
import { createDiplomaProgressService } from './features/diplomas/diploma-progress.service.ts';
import { registerDiplomaRoutes } from './features/diplomas/diplomas.routes.ts';
import { createCertificatesService } from './features/diplomas/certificates.service.ts';
import { registerCertificateRoutes } from './features/diplomas/certificates.routes.ts';
import { createCreditsService } from './features/credits/credits.service.ts';
import { createCreditRecordsService, creditRecordsPurgeJobKind } from './features/credits/credit-records.service.ts';
import { registerCreditRoutes } from './features/credits/credits.routes.ts';
import { createProcedureCreditsService } from './features/credits/procedure-credits.service.ts';
import { registerProcedureCreditRoutes } from './features/credits/procedure-credits.routes.ts';
import { createDiplomaPurchaseService } from './features/diplomas/diploma-purchase.service.ts';
import { createConsentsService } from './features/privacy/consents.service.ts';
import { createPrivacyService } from './features/privacy/privacy.service.ts';
import { privacyJobKinds } from './features/privacy/privacy.jobs.ts';
import { deletionLedgerFor } from './features/privacy/deletion-ledger.ts';
import { registerPrivacyRoutes } from './features/privacy/privacy.routes.ts';
import { backupJobKinds, createBackupsService } from './features/backups/backups.service.ts';
import { registerBackupCliRoute } from './features/backups/backups.routes.ts';
import { createPageMetadata } from './features/seo/page-metadata.ts';
import { pageMetadataSources } from './features/seo/page-metadata-sources.ts';
import { createSeoService } from './features/seo/seo.service.ts';
import { registerSeoRoutes } from './features/seo/seo.routes.ts';
import path from 'node:path';
import { serverWithLane } from './server-with-lane.ts';
import { registerAdminConsole } from './admin-console.ts';
import { facturaJobHandlers, facturasServiceFor, registerFacturas } from './facturas-services.ts';
import { recurringJobs } from './recurring-jobs.ts';
import { createLti, ltiJobHandlers, registerLti } from './features/lti/lti.ts';

export type AppDeps = {
  config: Config;
  database: Database;
  storage: FileStorage;
  mailer: MailTransport;
  /** Built SPA folder; null serves the API alone (tests). */
  distDir?: string | null;
  /** Overrides the provider PAYMENTS_PROVIDER selects (tests of the PayPal provider). */
  paymentProvider?: PaymentProvider;
  /** Providers holding subscriptions beside the configured one (tests of several providers at once). */
  otherSubscriptionProviders?: (db: Database['db']) => SubscriptionOperations[];
  /** Where the log goes instead of stdout (tests read it back). */
  logStream?: NodeJS.WritableStream;
};

const defaultDistDir = fileURLToPath(new URL('../../dist', import.meta.url));

/** The whole server as one Fastify instance; every plugin and route is registered here, in order. */
export async function buildApp(deps: AppDeps) {
  const { config, database, storage } = deps;
  const transport = deps.mailer;
  // a member's and the payments' mail leaves through a job when it goes by SMTP (decision 064); bulk mail keeps
  // its own per-recipient record and sends through the transport itself
  const mailer = createQueuedMailer({
    db: database.db,
    transport,
    kick: () => void jobs.runDue().catch((error: unknown) => app.log.error({ err: error }, 'mail job failed')),
  });
  // behind nginx, the media hand-over lane answers a video's repeat range requests before Fastify (decision 021)
  let handOverLane: HandOverLane | null = null;
  const app = Fastify({
    ...loggerOptions(config.logLevel, deps.logStream),
    // hop 0 is the socket peer: believe that many proxies in front of us
    trustProxy: (_address: string, hop: number) => hop < config.trustProxy,
    serverFactory: serverWithLane(() => handOverLane),
  });
  // set once the server starts draining or closing: readiness then says so, and the hand-over lane steps aside
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerRequestLog(app);
  registerControlCharacterCheck(app);
  forbidUnguardedAdminRoutes(app);
  const securityHeaders = await registerSecurityHeaders(app, {
    https: config.secureCookies,
    mediaOrigin: storage.publicOrigin,
  });
  // per-route limits for forms anyone can post (contact); sign-in limits live in the database via better-auth
  const { db } = database;
  const rateCounter = createRateCounter({ db });
  // counted in the database like the sign-in limits: every instance sees the same counts
  await app.register(rateLimit, { global: false, store: rateLimitStore(rateCounter) });

  const origins = trustedOrigins(config);
  registerSameOriginCheck(app, origins);
  const auth = createAuth({
    db,
    baseUrl: config.publicUrl,
    secret: config.sessionSecret,
    secureCookies: config.secureCookies,
    trustedOrigins: origins,
    sendResetPassword: createResetMailSender({ mailer, publicUrl: config.publicUrl }),
  });
  const accounts = createAccountsService({
    database,
    auth,
    publicUrl: config.publicUrl,
    rateCounter,
    signInLimits: config.signInLimits,
  });
  // transcoding has a runner of its own: a long ladder never holds up mail, webhooks or membership changes
  const videoJobs = createJobRunner({
    db,
    handlers: { [transcodeJobKind]: async ({ renditionId }) => renditions.transcode(renditionId) },
    pollMs: 5_000,
    log: app.log,
  });
  const renditions = createRenditionsService({
    db,
    storage,
    schedule: videoJobs.schedule,
    tools: findVideoTools({ ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath }),
    log: app.log,
  });
  app.addHook('onClose', async () => {
    renditions.stop();
    await videoJobs.stop();
  });
  const classrooms = createClassroomsService({ db });
  const classroomMembers = createClassroomMembersService({ db, timeZone: config.timeZone });
  const classroomProgress = createClassroomProgressService({ db, timeZone: config.timeZone });
  const analytics = createAnalyticsService({ db, secret: config.sessionSecret });
  const viewing = createViewingService({ database });
  const watchedTime = createWatchedTimeService({ db });
  const diplomas = createDiplomasService({ db, analytics, ladders: renditions, watchedTime, viewing });
  const devices = createDevicesService({ database });
  const media = createMediaService({ db, classrooms, diplomas, viewing, renditions, listen: database.listen });
  const catalog = createCatalogService({
    db,
    classrooms,
    analytics,
    ladders: renditions,
    marks: createWatchMarksService({ db }),
    listen: database.listen,
  });
  const watching = createWatchingService({ db, catalog, viewing, watchedTime });
  const events = createEventsService({ db, publicUrl: config.publicUrl, timeZone: config.timeZone });
  const landing = createLandingService({ db, catalog });
  const contact = createContactService({ mailer, contactEmail: config.contactEmail });
  const { paymentProvider, simulatedProvider, mercadoPagoProvider, subscriptionProviders, registerSimulatedPages } =
    paymentProvidersFor({ ...deps, config, db, log: app.log });
  const jobs = createJobRunner({
    db,
    handlers: {
      'membership.sweep': async () => void (await membership.sweep()),
      ...paymentJobHandlers(() => ({ payments, pesos })),
      ...facturaJobHandlers(() => facturas),
      'bulk-mail': async ({ bulkMailId }) => mailing.send(bulkMailId),
      [mailJobKind]: async (message, run) => sendQueuedMail(transport, message, run),
      'rate-counters.prune': async () => rateCounter.prune(),
      [jobsPruneKind]: async () => void (await jobs.pruneDone()),
      [creditRecordsPurgeJobKind]: async () => void (await creditRecords.purgeExpired()),
      [privacyJobKinds.export]: async ({ exportId }) => privacy.buildExport(exportId),
      [privacyJobKinds.mail]: async (mail) => privacy.sendMail(mail),
      [privacyJobKinds.sweep]: async () => void (await privacy.sweepExpired()),
      [privacyJobKinds.reconcile]: async () => void (await privacy.reconcileDeletions()),
      [backupJobKinds.scheduled]: async () => void (await backups.run('programado')),
      [backupJobKinds.manual]: async () => void (await backups.run('consola')),
      ...ltiJobHandlers(() => lti),
      // PostgreSQL has autovacuum; the embedded database has nothing else that vacuums or analyzes
      ...(database.kind === 'pglite' ? { [maintenanceJobKind]: () => maintainDatabase(database.db, app.log) } : {}),
    },
    recurring: recurringJobs({ embedded: database.kind === 'pglite', backupSchedule: config.backup.schedule }),
    log: app.log,
    forgetPayloadOf: [mailJobKind],
  });
  const membership = createMembershipService({
    db,
    providers: subscriptionProviders,
    mailer,
    publicUrl: config.publicUrl,
    log: app.log,
  });
  const facturas = facturasServiceFor({ config, db, schedule: jobs.schedule, log: app.log });
  const payments = createPaymentsService({
    db,
    provider: paymentProvider,
    membership,
    publicUrl: config.publicUrl,
    schedule: jobs.schedule,
    onRefunded: facturas.dollarPaymentsRefunded,
    log: app.log,
  });
  const certificates = createCertificatesService({
    db,
    diplomas,
    storage,
    config,
  });
  const credits = createCreditsService({ db, diplomas, certificates, timeZone: config.timeZone });
  const creditRecords = createCreditRecordsService({ db, timeZone: config.timeZone });
  const procedureCredits = createProcedureCreditsService({ db, catalog, watchedTime, localDate: credits.localDate });
  const consents = createConsentsService({ db });
  const privacy = createPrivacyService({
    db,
    storage,
    mailer,
    auth,
    providers: subscriptionProviders,
    certificates,
    consents,
    rateCounter,
    schedule: jobs.schedule,
    ledger: deletionLedgerFor(config, storage),
    publicUrl: config.publicUrl,
    log: app.log,
  });
  const diplomaPurchase = createDiplomaPurchaseService({
    db,
    diplomas,
    payments,
    publicUrl: config.publicUrl,
    log: app.log,
  });
  // order outcomes reach the diplomas through the payments job pipeline: a browser closed after paying still ends enrolled
  payments.onOrder(diplomaPurchase.applyOrderEvent);
  const pesos = mercadoPagoProvider
    ? mercadoPagoServices({
        db,
        provider: mercadoPagoProvider,
        membership,
        applyOrderEvent: diplomaPurchase.applyOrderEvent,
        publicUrl: config.publicUrl,
        schedule: jobs.schedule,
        onPesosPayment: facturas.paymentRecorded,
        log: app.log,
      })
    : null;
  const mercadoPago = pesos?.payments ?? null;
  const signUp = createSignUpService({ db, auth, accounts, consents });
  const profile = createProfileService({
    db,
    auth,
    membership,
    signUp,
    consents,
    unprintableCharacters: certificates.unprintableCharacters,
  });
  app.addHook('onClose', async () => jobs.stop());
  const backups = createBackupsService({
    database,
    uploadsRoot: storage.root,
    backup: config.backup,
    sessionSecretFile: path.join(config.dataDir, 'session-secret'),
    schedule: jobs.queue,
    log: app.log,
  });
  const uploads = createUploadsService({
    db,
    storage,
    videos: { saved: renditions.queueFor, removed: renditions.removeFor },
  });
  const mailing = createMailingService({
    db,
    mailer: transport,
    uploads,
    publicUrl: config.publicUrl,
    secret: config.sessionSecret,
    consents,
    enqueue: (bulkMailId) => jobs.schedule('bulk-mail', { payload: { bulkMailId } }),
  });

  const lti = createLti({ db, auth, accounts, config, members: classroomMembers, schedule: jobs.schedule });
  registerLti(app, lti);
  registerAuthorization(app, accounts);
  registerHealthRoutes(app, { database, storage, isClosing: () => closing });
  registerAccountRoutes(app, { accounts });
  ({ handOverLane } = registerMediaRoutes(app, {
    media,
    storage,
    signedUrlSeconds: config.signedUrlSeconds,
    accelRedirect: config.mediaAccelRedirect,
    securityHeaders,
    isClosing: () => closing,
  }));
  registerCatalogRoutes(app, { catalog, classrooms, analytics, accounts });
  registerViewingRoutes(app, { viewing, sessions: devices });
  registerDeviceRoutes(app, { devices });
  await registerWatchingRoutes(app, { watching });
  registerEventRoutes(app, { events });
  registerLandingRoutes(app, { landing });
  registerContactRoutes(app, { contact });
  registerMailingPublicRoutes(app, { mailing });
  const signUpsPerTenMinutes = config.signUpsPerTenMinutes;
  registerSignUpAndProfileRoutes(app, { signUp, profile, membership, accounts, signUpsPerTenMinutes });
  registerMembershipRoutes(app, { membership });
  registerPrivacyRoutes(app, { privacy, accounts, jobs });
  registerBackupCliRoute(app, { backups, sessionSecret: config.sessionSecret });
  registerPaymentRoutes(app, { payments, jobs, pesos });
  pesos?.registerRoutes(app, { diplomas, jobs });
  registerFacturas(app, { facturas, jobs });
  registerClassroomRoutes(app, { classrooms });
  await registerManagedClassroomRoutes(app, {
    service: createManagedClassroomsService({ db }),
    members: classroomMembers,
    progress: classroomProgress,
  });
  await registerDiplomaRoutes(app, { diplomas, certificates, purchase: diplomaPurchase });
  registerCertificateRoutes(app, { certificates });
  registerCreditRoutes(app, { credits, publicUrl: config.publicUrl });
  registerProcedureCreditRoutes(app, { procedureCredits });
  const diplomasAdmin = createDiplomasAdminService({ db, uploads });
  const diplomaProgress = createDiplomaProgressService({ db, timeZone: config.timeZone });
  await registerManagedDiplomaRoutes(app, {
    managed: createManagedDiplomasService({ db, diplomasAdmin }),
    progress: diplomaProgress,
  });
  registerSimulatedPages(app);
  // the only place /api/admin routes are registered: one guard for all of them
  await registerAdminScope(app, (admin) =>
    registerAdminConsole(admin, {
      db,
      timeZone: config.timeZone,
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
      facturas,
    }),
  );
  registerSeoRoutes(app, { seo: createSeoService({ db, storage, publicUrl: config.publicUrl }) });
  const pageMetadata = createPageMetadata({
    publicUrl: config.publicUrl,
    timeZone: config.timeZone,
    sources: pageMetadataSources({ catalog, diplomas, events, certificates }),
  });
  await registerWebApp(app, deps.distDir === undefined ? defaultDistDir : deps.distDir, {
    pageHead: pageMetadata.render,
    heroPicture: landing.heroPicture,
    catalogPicture: async (query) => (await catalog.list(null, query)).items[0]?.previewUrl ?? null,
    procedurePicture: catalog.guestPoster,
    testPayments: paymentProvider.name === 'simulado',
  });

  const services = {
    backups,
    membership,
    payments,
    paymentProvider,
    simulatedProvider,
    mercadoPago,
    facturas,
    jobs,
    videoJobs,
    renditions,
    signUp,
    profile,
    accounts,
    auth,
    classrooms,
    diplomas,
    media,
    catalog,
    analytics,
    viewing,
    uploads,
    privacy,
    creditRecords,
    consents,
    mailing,
    lti,
  };
  return Object.assign(app, {
    /** Shutdown's first step: readiness answers 503 from now on while requests are still served (the drain). */
    startDraining() {
      closing = true;
    },
    services,
  }) as FastifyInstance & { startDraining(): void; services: typeof services };
}

export type App = Awaited<ReturnType<typeof buildApp>>;
