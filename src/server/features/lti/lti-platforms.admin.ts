import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import {
  ltiLaunchSessions,
  ltiLinks,
  ltiPlatforms,
  ltiScores,
  organizations,
  sessions,
  users,
} from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import { okSchema, recordParamsSchema } from '#shared/records.schemas.ts';
import {
  ltiConsoleSchema,
  ltiPlatformInputSchema,
  ltiPlatformSchema,
  ltiRegistrationInputSchema,
  ltiRegistrationUrlSchema,
  ltiScoreListSchema,
  type LtiPlatformInput,
} from '#shared/lti/lti.admin.schemas.ts';
import { requireUser } from '#server/plugins/authorization.ts';
import { toolJwks, type LtiKey } from './lti-key.ts';
import type { LtiRegistration } from './lti-registration.ts';

/** CxVet's own addresses, as an LMS administrator pastes them. */
export function toolUrls(publicUrl: string) {
  return {
    jwksUrl: `${publicUrl}/api/lti/jwks`,
    loginUrl: `${publicUrl}/api/lti/login`,
    launchUrl: `${publicUrl}/api/lti/launch`,
    deepLinkingUrl: `${publicUrl}/api/lti/launch`,
  };
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown; cause?: { code?: unknown } } | null)?.code;
  return code === '23505' || (error as { cause?: { code?: unknown } } | null)?.cause?.code === '23505';
}

/** 'Plataformas LTI' under /api/admin/lti; registered in the Admin scope. */
export function registerLtiAdminRoutes(
  app: FastifyInstance,
  deps: {
    db: Db;
    key: LtiKey | undefined;
    publicUrl: string;
    platformsChanged: () => void;
    registration: LtiRegistration | null;
  },
) {
  const { db } = deps;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const byId = { params: recordParamsSchema };

  async function list() {
    const rows = await db
      .select({ platform: ltiPlatforms, organizationTitle: organizations.title })
      .from(ltiPlatforms)
      .innerJoin(organizations, eq(organizations.id, ltiPlatforms.organizationId))
      .orderBy(ltiPlatforms.name);
    return rows.map(({ platform, organizationTitle }) => ({
      id: platform.id,
      name: platform.name,
      issuer: platform.issuer,
      clientId: platform.clientId,
      deploymentIds: platform.deploymentIds,
      authorizationUrl: platform.authorizationUrl,
      tokenUrl: platform.tokenUrl,
      jwksUrl: platform.jwksUrl,
      organizationId: platform.organizationId,
      organizationTitle,
    }));
  }

  async function organizationExists(id: string) {
    const [organization] = await db
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.id, id));
    if (!organization) throw new AppError('VALIDATION', { fields: { organizationId: 'Elige una organización' } });
  }

  async function save(id: string | null, input: LtiPlatformInput) {
    await organizationExists(input.organizationId);
    const values = {
      ...input,
      issuer: input.issuer.replace(/\/$/, ''),
      deploymentIds: [...new Set(input.deploymentIds)],
    };
    try {
      const [row] = id
        ? await db.update(ltiPlatforms).set(values).where(eq(ltiPlatforms.id, id)).returning()
        : await db.insert(ltiPlatforms).values(values).returning();
      if (!row) throw new AppError('NOT_FOUND');
      deps.platformsChanged();
      return (await list()).find((platform) => platform.id === row.id)!;
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new AppError('CONFLICT', {
          fields: { clientId: 'Ya hay una plataforma con este emisor y este client id' },
        });
      }
      throw error;
    }
  }

  routes.get('/api/admin/lti/platforms', { schema: { response: { 200: ltiConsoleSchema } } }, async () => ({
    tool: { ...toolUrls(deps.publicUrl), jwks: deps.key ? toolJwks(deps.key) : { keys: [] } },
    items: await list(),
  }));
  routes.post(
    '/api/admin/lti/platforms',
    { schema: { body: ltiPlatformInputSchema, response: { 200: ltiPlatformSchema } } },
    (request) => save(null, request.body),
  );
  routes.put(
    '/api/admin/lti/platforms/:id',
    { schema: { ...byId, body: ltiPlatformInputSchema, response: { 200: ltiPlatformSchema } } },
    (request) => save(request.params.id, request.body),
  );
  routes.delete(
    '/api/admin/lti/platforms/:id',
    { schema: { ...byId, response: { 200: okSchema } } },
    async (request) => {
      // the sessions its launches opened end with it: a launch cookie still held grants nothing
      const removed = await db.transaction(async (tx) => {
        const launched = tx
          .select({ id: ltiLaunchSessions.sessionId })
          .from(ltiLaunchSessions)
          .where(eq(ltiLaunchSessions.platformId, request.params.id));
        await tx.delete(sessions).where(inArray(sessions.id, launched));
        return tx.delete(ltiPlatforms).where(eq(ltiPlatforms.id, request.params.id)).returning();
      });
      if (removed.length === 0) throw new AppError('NOT_FOUND');
      deps.platformsChanged();
      return { ok: true as const };
    },
  );
  routes.post(
    '/api/admin/lti/registrations',
    { schema: { body: ltiRegistrationInputSchema, response: { 200: ltiRegistrationUrlSchema } } },
    async (request) => {
      const user = await requireUser(request);
      await organizationExists(request.body.organizationId);
      if (!deps.registration) throw new AppError('SERVICE_UNAVAILABLE');
      return deps.registration.create(request.body.organizationId, user.id);
    },
  );
  routes.get('/api/admin/lti/scores', { schema: { response: { 200: ltiScoreListSchema } } }, async () => {
    const rows = await db
      .select({
        score: ltiScores,
        platformName: ltiPlatforms.name,
        contextTitle: ltiLinks.contextTitle,
        userName: users.name,
      })
      .from(ltiScores)
      .innerJoin(ltiLinks, eq(ltiLinks.id, ltiScores.linkId))
      .innerJoin(ltiPlatforms, eq(ltiPlatforms.id, ltiLinks.platformId))
      .innerJoin(users, eq(users.id, ltiScores.userId))
      .orderBy(desc(ltiScores.createdAt))
      .limit(200);
    return {
      items: rows.map(({ score, platformName, contextTitle, userName }) => ({
        id: score.id,
        platformName,
        contextTitle,
        userName,
        scoreGiven: score.scoreGiven,
        scoreMaximum: score.scoreMaximum,
        status: score.status,
        attempts: score.attempts,
        lastError: score.lastError,
        createdAt: score.createdAt.toISOString(),
        sentAt: score.sentAt?.toISOString() ?? null,
      })),
    };
  });
}
