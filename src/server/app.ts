import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { fileURLToPath } from 'node:url';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { FileStorage } from './services/storage.ts';
import type { Mailer } from './services/mail.ts';
import { registerErrorHandler } from './plugins/error-handler.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerAuthorization } from './plugins/authorization.ts';
import { registerWebApp } from './plugins/web-app.ts';
import { registerSameOriginCheck } from './plugins/same-origin.ts';
import { createAuth } from './features/accounts/auth.ts';
import { createAccountsService } from './features/accounts/accounts.service.ts';
import { createResetMailSender } from './features/accounts/accounts.mails.ts';
import { registerAccountRoutes } from './features/accounts/accounts.routes.ts';
import { registerHealthRoutes } from './features/health/health.routes.ts';
import { createClassroomsService } from './features/classrooms/classrooms.service.ts';
import { createDiplomasService } from './features/diplomas/diplomas.service.ts';
import { createMediaService } from './features/media/media.service.ts';
import { registerMediaRoutes } from './features/media/media.routes.ts';
import { createAnalyticsService } from './features/analytics/analytics.service.ts';
import { createCatalogService } from './features/catalog/catalog.service.ts';
import { registerCatalogRoutes } from './features/catalog/catalog.routes.ts';
import { createViewingService } from './features/viewing/viewing.service.ts';
import { registerViewingRoutes } from './features/viewing/viewing.routes.ts';
import { createEventsService } from './features/events/events.service.ts';
import { registerEventRoutes } from './features/events/events.routes.ts';
import { createLandingService } from './features/landing/landing.service.ts';
import { registerLandingRoutes } from './features/landing/landing.routes.ts';
import { createContactService } from './features/contact/contact.service.ts';
import { registerContactRoutes } from './features/contact/contact.routes.ts';
import rateLimit from '@fastify/rate-limit';
import { registerOutboxRoutes } from './features/admin/outbox.routes.ts';

export type AppDeps = {
  config: Config;
  database: Database;
  storage: FileStorage;
  mailer: Mailer;
  /** Built SPA folder; null serves the API alone (tests). */
  distDir?: string | null;
};

export const defaultDistDir = fileURLToPath(new URL('../../dist', import.meta.url));

/** The whole server as one Fastify instance; every plugin and route is registered here, in order. */
export async function buildApp(deps: AppDeps) {
  const { config, database, storage, mailer } = deps;
  const app = Fastify({
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
    // hop 0 is the socket peer: believe that many proxies in front of us
    trustProxy: (_address: string, hop: number) => hop < config.trustProxy,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  await registerSecurityHeaders(app, { https: config.secureCookies });
  // per-route limits for forms anyone can post (contact); sign-in limits live in the database via better-auth
  await app.register(rateLimit, { global: false });

  const { db } = database;
  const trustedOrigins = [config.publicUrl, 'http://localhost:5173'];
  registerSameOriginCheck(app, trustedOrigins);
  const auth = createAuth({
    db,
    baseUrl: config.publicUrl,
    secret: config.sessionSecret,
    secureCookies: config.secureCookies,
    trustedOrigins,
    sendResetPassword: createResetMailSender({ mailer, publicUrl: config.publicUrl }),
  });
  const accounts = createAccountsService({ db, auth, publicUrl: config.publicUrl });
  const classrooms = createClassroomsService({ db });
  const diplomas = createDiplomasService({ db });
  const viewing = createViewingService({ database });
  const media = createMediaService({ db, classrooms, diplomas, viewing });
  const analytics = createAnalyticsService({ db });
  const catalog = createCatalogService({ db, classrooms, analytics });
  const events = createEventsService({ db });
  const landing = createLandingService({ db, catalog });
  const contact = createContactService({ db, mailer, contactEmail: config.contactEmail });

  registerAuthorization(app, accounts);
  registerHealthRoutes(app, { database });
  registerAccountRoutes(app, { accounts });
  registerMediaRoutes(app, { media, storage });
  registerCatalogRoutes(app, { catalog, classrooms, analytics });
  registerViewingRoutes(app, { viewing });
  registerEventRoutes(app, { events });
  registerLandingRoutes(app, { landing });
  registerContactRoutes(app, { contact });
  registerOutboxRoutes(app, { db });
  await registerWebApp(app, deps.distDir === undefined ? defaultDistDir : deps.distDir);

  return Object.assign(app, { services: { accounts, auth, classrooms, diplomas, media, catalog, analytics, viewing } }) as FastifyInstance & {
    services: {
      accounts: typeof accounts;
      auth: typeof auth;
      classrooms: typeof classrooms;
      diplomas: typeof diplomas;
      media: typeof media;
      catalog: typeof catalog;
      analytics: typeof analytics;
      viewing: typeof viewing;
    };
  };
}

export type App = Awaited<ReturnType<typeof buildApp>>;
