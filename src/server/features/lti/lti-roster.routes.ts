import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq } from 'drizzle-orm';
import { classroomCoAdmins, classrooms } from '#server/db/schema/index.ts';
import { requireUser } from '#server/plugins/authorization.ts';
import { AppError } from '#shared/errors.ts';
import { isAdmin } from '#shared/accounts/accounts.rules.ts';
import { recordParamsSchema } from '#shared/records.schemas.ts';
import type { Lti } from './lti.ts';

/** An aula's roster from its linked courses: its administrator, a co-administrator, or an Admin. */
export function registerLtiRosterRoutes(app: FastifyInstance, lti: Lti): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const schema = { params: recordParamsSchema };

  async function managedClassroom(request: FastifyRequest, id: string) {
    const user = await requireUser(request);
    const [classroom] = await lti.db.select().from(classrooms).where(eq(classrooms.id, id));
    if (!classroom) throw new AppError('NOT_FOUND');
    const [coAdmin] = await lti.db
      .select({ userId: classroomCoAdmins.userId })
      .from(classroomCoAdmins)
      .where(and(eq(classroomCoAdmins.classroomId, classroom.id), eq(classroomCoAdmins.userId, user.id)));
    // an aula someone does not manage is not found: ids reveal nothing
    if (!isAdmin(user) && classroom.adminUserId !== user.id && !coAdmin) throw new AppError('NOT_FOUND');
    return classroom;
  }

  routes.get('/api/lti/classrooms/:id/roster', { schema }, async (request) => {
    const classroom = await managedClassroom(request, request.params.id);
    const links = lti.roster ? await lti.roster.linksOf(classroom.id) : [];
    return { courses: links.map((link) => link.contextTitle ?? 'Curso sin nombre') };
  });

  routes.post('/api/lti/classrooms/:id/roster-sync', { schema }, async (request) => {
    const classroom = await managedClassroom(request, request.params.id);
    if (!lti.roster) throw new AppError('NOT_FOUND');
    const totals = { added: 0, removed: 0, skipped: 0 };
    try {
      for (const link of await lti.roster.linksOf(classroom.id)) {
        const result = await lti.roster.sync(link.id);
        totals.added += result.added;
        totals.removed += result.removed;
        totals.skipped += result.skipped;
      }
    } catch (error) {
      // the platform is down or refused us: the daily job tries again
      request.log.warn({ err: error }, 'LTI roster sync failed');
      throw new AppError('SERVICE_UNAVAILABLE');
    }
    return totals;
  });
}
