import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import {
  classroomUsers,
  classrooms,
  ltiAccounts,
  ltiLinks,
  ltiPlatforms,
  ltiRosterMembers,
  users,
} from '#server/db/schema/index.ts';
import type { ClassroomMembersService } from '#server/features/classrooms/classroom-members.service.ts';
import { isInstructor } from './lti-claims.ts';
import type { LtiServices } from './lti-services.ts';

export type RosterSync = { added: number; removed: number; skipped: number };

/**
 * An aula linked to a course takes its learners from the course roster: each matched by platform and sub, created
 * as on a first launch when new, then added through the CSV import's preview (its audience rules); a later sync
 * removes only the members a sync or a launch added, never those the aula's administrators added.
 */
export function createLtiRoster(deps: { db: Db; services: LtiServices; members: ClassroomMembersService }) {
  const { db } = deps;

  async function accountsOf(
    platform: typeof ltiPlatforms.$inferSelect,
    roster: Awaited<ReturnType<LtiServices['members']>>,
  ) {
    const ids = new Map<string, string>();
    let skipped = 0;
    for (const member of roster) {
      const [known] = await db
        .select({ userId: ltiAccounts.userId })
        .from(ltiAccounts)
        .where(and(eq(ltiAccounts.platformId, platform.id), eq(ltiAccounts.sub, member.sub)));
      if (known) {
        ids.set(member.sub, known.userId);
        continue;
      }
      // an address that already has an account is linked only by its owner signing in (at their first launch)
      const [taken] = member.email
        ? await db.select({ id: users.id }).from(users).where(eq(users.email, member.email))
        : [];
      if (taken) {
        skipped += 1;
        continue;
      }
      const id = crypto.randomUUID();
      const email = member.email ?? `lti-${crypto.randomUUID()}@lti.cxvet.invalid`;
      await db.transaction(async (tx) => {
        await tx.insert(users).values({
          id,
          name: (member.name || 'Usuario LTI').slice(0, 100),
          email,
          emailVerified: Boolean(member.email),
          type: 'Gratis',
          organizationId: platform.organizationId,
        });
        await tx.insert(ltiAccounts).values({ platformId: platform.id, sub: member.sub, userId: id });
      });
      ids.set(member.sub, id);
    }
    return { ids, skipped };
  }

  async function sync(linkId: string): Promise<RosterSync> {
    const [row] = await db
      .select({ link: ltiLinks, platform: ltiPlatforms, classroom: classrooms })
      .from(ltiLinks)
      .innerJoin(ltiPlatforms, eq(ltiPlatforms.id, ltiLinks.platformId))
      .innerJoin(classrooms, eq(classrooms.id, ltiLinks.targetId))
      .where(and(eq(ltiLinks.id, linkId), eq(ltiLinks.targetKind, 'aula')));
    if (!row?.link.membershipsUrl) return { added: 0, removed: 0, skipped: 0 };
    const { link, platform, classroom } = row;
    const roster = (await deps.services.members(platform, link.membershipsUrl!)).filter(
      (member) => member.active && !isInstructor(member.roles),
    );
    const { ids, skipped } = await accountsOf(platform, roster);
    const current = await db
      .select({ userId: classroomUsers.userId })
      .from(classroomUsers)
      .where(eq(classroomUsers.classroomId, classroom.id));
    const emails = await db
      .select({ email: users.email })
      .from(users)
      .where(inArray(users.id, [...ids.values(), '']));
    const audience = { organizationType: classroom.organizationType, organizationId: classroom.organizationId };
    const preview = await deps.members.managedPreview(
      audience,
      current.map((member) => member.userId),
      { format: 'text', text: emails.map((entry) => entry.email).join('\n') },
    );
    const toAdd = preview.matched.map((member) => member.id);
    const added = toAdd.length > 0 ? await deps.members.addUsers(classroom.id, toAdd) : 0;
    if (toAdd.length > 0) {
      await db
        .insert(ltiRosterMembers)
        .values(toAdd.map((userId) => ({ classroomId: classroom.id, userId, linkId: link.id })))
        .onConflictDoNothing();
    }
    const keep = new Set(ids.values());
    const ours = await db
      .select({ userId: ltiRosterMembers.userId })
      .from(ltiRosterMembers)
      .where(eq(ltiRosterMembers.classroomId, classroom.id));
    const gone = ours.map((member) => member.userId).filter((userId) => !keep.has(userId));
    if (gone.length > 0) {
      await db.transaction(async (tx) => {
        await tx
          .delete(classroomUsers)
          .where(and(eq(classroomUsers.classroomId, classroom.id), inArray(classroomUsers.userId, gone)));
        await tx
          .delete(ltiRosterMembers)
          .where(and(eq(ltiRosterMembers.classroomId, classroom.id), inArray(ltiRosterMembers.userId, gone)));
      });
    }
    return { added, removed: gone.length, skipped };
  }

  /** The daily refresh: every aula link that offers a roster. */
  async function syncAll(): Promise<void> {
    const links = await db
      .select({ id: ltiLinks.id })
      .from(ltiLinks)
      .where(and(eq(ltiLinks.targetKind, 'aula'), isNotNull(ltiLinks.membershipsUrl)));
    for (const link of links) await sync(link.id);
  }

  /** The aula's links with a roster: what its administrators' button syncs. */
  async function linksOf(classroomId: string) {
    return db
      .select({ id: ltiLinks.id, contextTitle: ltiLinks.contextTitle })
      .from(ltiLinks)
      .where(
        and(eq(ltiLinks.targetKind, 'aula'), eq(ltiLinks.targetId, classroomId), isNotNull(ltiLinks.membershipsUrl)),
      );
  }

  return { sync, syncAll, linksOf };
}
