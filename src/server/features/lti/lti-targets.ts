import { and, asc, eq } from 'drizzle-orm';
import { SignJWT, jwtVerify, importPKCS8, importJWK, type JWTPayload } from 'jose';
import type { Db } from '#server/db/client.ts';
import {
  classroomCoAdmins,
  classroomUsers,
  classrooms,
  diplomaUsers,
  diplomas,
  ltiLinkMembers,
  ltiLinks,
  ltiRosterMembers,
  procedures,
} from '#server/db/schema/index.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import { claims, isInstructor, messageTypes, targetKinds, type TargetKind } from './lti-claims.ts';
import { toolJwks, type LtiKey } from './lti-key.ts';
import type { Platform } from './lti-launch.ts';
import type { PickOption } from './lti-pages.ts';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const pickLifetime = '1h';

type Target = { kind: TargetKind; id: string };

export function createLtiTargets(deps: { db: Db; key: LtiKey; publicUrl: string }) {
  const { db, key, publicUrl } = deps;
  const signingKey = importPKCS8(key.privateKeyPem, 'RS256');
  const ownPublicKey = importJWK(toolJwks(key).keys[0]!, 'RS256');

  function targetOf(token: JWTPayload): Target | null {
    const custom = (token[claims.custom] ?? {}) as Record<string, unknown>;
    const kind = custom.cxvet_kind;
    const id = custom.cxvet_id;
    if (typeof kind !== 'string' || typeof id !== 'string') return null;
    if (!(targetKinds as readonly string[]).includes(kind) || !uuidPattern.test(id)) return null;
    return { kind: kind as TargetKind, id };
  }

  /** The link as the platform describes it now: its target, line item and roster service. */
  async function recordLink(platform: Platform, token: JWTPayload, target: Target, user: UserRow) {
    const resourceLink = token[claims.resourceLink] as { id: string };
    const context = (token[claims.context] ?? {}) as { id?: unknown; title?: unknown };
    const ags = (token[claims.agsEndpoint] ?? {}) as { lineitem?: unknown; scope?: unknown };
    const nrps = (token[claims.nrps] ?? {}) as { context_memberships_url?: unknown };
    const values = {
      deploymentId: token[claims.deploymentId] as string,
      contextId: typeof context.id === 'string' ? context.id : null,
      contextTitle: typeof context.title === 'string' ? context.title.slice(0, 200) : null,
      targetKind: target.kind,
      targetId: target.id,
      lineItemUrl: typeof ags.lineitem === 'string' ? ags.lineitem : null,
      membershipsUrl: typeof nrps.context_memberships_url === 'string' ? nrps.context_memberships_url : null,
      updatedAt: new Date(),
    };
    const [link] = await db
      .insert(ltiLinks)
      .values({ platformId: platform.id, resourceLinkId: resourceLink.id, ...values })
      .onConflictDoUpdate({ target: [ltiLinks.platformId, ltiLinks.resourceLinkId], set: values })
      .returning();
    await db
      .insert(ltiLinkMembers)
      .values({ linkId: link!.id, userId: user.id, sub: token.sub! })
      .onConflictDoNothing();
    return link!;
  }

  /**
   * Where a resource-link launch goes, after its effects: an aula of the platform's organization takes the learner
   * in (as a member the roster sync may later remove) and the instructor as co-administrator; a diploma enrols only
   * when the platform's organization owns it, otherwise its page offers the purchase.
   */
  async function open(platform: Platform, token: JWTPayload, user: UserRow): Promise<string | null> {
    const target = targetOf(token);
    if (!target) return null;
    const roles = token[claims.roles] as string[];
    if (target.kind === 'aula') {
      const [classroom] = await db
        .select()
        .from(classrooms)
        .where(and(eq(classrooms.id, target.id), eq(classrooms.organizationId, platform.organizationId)));
      if (!classroom || !classroom.isActive) return null;
      const link = await recordLink(platform, token, target, user);
      if (isInstructor(roles)) {
        await db
          .insert(classroomCoAdmins)
          .values({ classroomId: classroom.id, userId: user.id, platformId: platform.id })
          .onConflictDoNothing();
        return `/administrar-aula/aula/${classroom.id}`;
      }
      const added = await db
        .insert(classroomUsers)
        .values({ classroomId: classroom.id, userId: user.id })
        .onConflictDoNothing()
        .returning();
      if (added.length > 0) {
        await db
          .insert(ltiRosterMembers)
          .values({ classroomId: classroom.id, userId: user.id, linkId: link.id })
          .onConflictDoNothing();
      }
      return `/mis-aulas/aula/${classroom.id}`;
    }
    if (target.kind === 'procedimiento') {
      const [procedure] = await db.select({ id: procedures.id }).from(procedures).where(eq(procedures.id, target.id));
      if (!procedure) return null;
      await recordLink(platform, token, target, user);
      return `/procedimiento/${procedure.id}`;
    }
    const [diploma] = await db.select().from(diplomas).where(eq(diplomas.id, target.id));
    if (!diploma || !diploma.isActive) return null;
    await recordLink(platform, token, target, user);
    const course = diploma.isExternal
      ? `/mis-diplomados/diplomado/${diploma.id}`
      : `/mis-diplomados/diplomado-CxVet/${diploma.id}`;
    if (diploma.organizationId === platform.organizationId) {
      await db.insert(diplomaUsers).values({ diplomaId: diploma.id, userId: user.id }).onConflictDoNothing();
      return course;
    }
    const [enrolled] = await db
      .select({ userId: diplomaUsers.userId })
      .from(diplomaUsers)
      .where(and(eq(diplomaUsers.diplomaId, diploma.id), eq(diplomaUsers.userId, user.id)));
    return enrolled ? course : `/mis-diplomados/diplomado-preview/${diploma.id}`;
  }

  /** What a professor may add: the organization's active aulas, the procedures, the active diplomas. */
  async function options(platform: Platform): Promise<PickOption[]> {
    const [aulas, procedureRows, diplomaRows] = await Promise.all([
      db
        .select({ id: classrooms.id, title: classrooms.title })
        .from(classrooms)
        .where(and(eq(classrooms.organizationId, platform.organizationId), eq(classrooms.isActive, true)))
        .orderBy(asc(classrooms.title)),
      db.select({ id: procedures.id, title: procedures.name }).from(procedures).orderBy(asc(procedures.name)),
      db
        .select({ id: diplomas.id, title: diplomas.title })
        .from(diplomas)
        .where(eq(diplomas.isActive, true))
        .orderBy(asc(diplomas.title)),
    ]);
    return [
      ...aulas.map((row) => ({ kind: 'aula' as const, ...row })),
      ...procedureRows.map((row) => ({ kind: 'procedimiento' as const, ...row })),
      ...diplomaRows.map((row) => ({ kind: 'diplomado' as const, ...row })),
    ];
  }

  /** The deep-linking request, carried through the picker signed by us and bound to the person who opened it. */
  async function pickContext(platform: Platform, token: JWTPayload, userId: string): Promise<string> {
    const settings = token[claims.deepLinkingSettings] as { deep_link_return_url: string; data?: unknown };
    return new SignJWT({
      purpose: 'lti-deep-linking',
      platformId: platform.id,
      deploymentId: token[claims.deploymentId] as string,
      returnUrl: settings.deep_link_return_url,
      ...(typeof settings.data === 'string' ? { data: settings.data } : {}),
    })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid })
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime(pickLifetime)
      .sign(await signingKey);
  }

  async function readPickContext(context: string, userId: string) {
    try {
      const { payload } = await jwtVerify(context, await ownPublicKey, { algorithms: ['RS256'], subject: userId });
      if (payload.purpose !== 'lti-deep-linking') return null;
      return payload as JWTPayload & { platformId: string; deploymentId: string; returnUrl: string; data?: string };
    } catch {
      return null;
    }
  }

  /** The LtiDeepLinkingResponse: one ltiResourceLink whose custom parameters name the chosen content. */
  async function deepLinkingResponse(
    platform: Platform,
    picked: Awaited<ReturnType<typeof readPickContext>> & object,
    option: PickOption,
  ) {
    const item = {
      type: 'ltiResourceLink',
      title: option.title,
      url: `${publicUrl}/api/lti/launch`,
      custom: { cxvet_kind: option.kind, cxvet_id: option.id },
      ...(option.kind === 'diplomado' ? { lineItem: { scoreMaximum: 100, label: option.title } } : {}),
    };
    return new SignJWT({
      [claims.messageType]: messageTypes.deepLinkingResponse,
      [claims.version]: '1.3.0',
      [claims.deploymentId]: picked.deploymentId,
      [claims.contentItems]: [item],
      ...(picked.data ? { [claims.deepLinkingData]: picked.data } : {}),
      nonce: crypto.randomUUID(),
    })
      .setProtectedHeader({ alg: 'RS256', kid: key.kid, typ: 'JWT' })
      .setIssuer(platform.clientId)
      .setAudience(platform.issuer)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(await signingKey);
  }

  return { open, options, pickContext, readPickContext, deepLinkingResponse, signingKey };
}
