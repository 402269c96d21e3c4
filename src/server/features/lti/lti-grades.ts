import { eq, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { ltiLinkMembers, ltiLinks, ltiPlatforms, ltiScores } from '#server/db/schema/index.ts';
import { JobAbandoned } from '#server/services/jobs.ts';
import type { LtiServices } from './lti-services.ts';

/**
 * How many times a score is tried: about a day, as the runner waits 1, 2, 4… minutes and then an hour between tries.
 * A platform still refusing then needs the Admin (its console lists the score as 'fallida' with the reason).
 */
export const scoreAttempts = 30;

export const ltiJobKinds = {
  collect: 'lti.collect-scores',
  send: 'lti.send-score',
  rosters: 'lti.sync-rosters',
} as const;

type Schedule = (kind: string, options: { payload: object; uniqueKey?: string }) => Promise<void>;

/**
 * Results owed to gradebooks: a diploma's exam result, and a procedure watched to the end, for every link of that
 * content its person launched; queued once per result (a newer result is a new score).
 */
export function createLtiGrades(deps: { db: Db; services: LtiServices; schedule: Schedule }) {
  const { db } = deps;

  async function rowsOf(result: unknown): Promise<{ id: string }[]> {
    return (Array.isArray(result) ? result : (result as { rows: { id: string }[] }).rows) as { id: string }[];
  }

  async function collect(): Promise<number> {
    const exams = await db.execute(sql`
      insert into lti_scores (link_id, user_id, score_given, score_maximum, comment)
      select l.id, r.user_id, r.score_percent, 100, 'Examen del diplomado'
      from exam_results r
      join exams e on e.id = r.exam_id
      join lti_links l on l.target_kind = 'diplomado' and l.target_id = e.diploma_id and l.line_item_url is not null
      join lti_link_members m on m.link_id = l.id and m.user_id = r.user_id
      where not exists (
        select 1 from lti_scores s where s.link_id = l.id and s.user_id = r.user_id and s.created_at >= r.completed_at
      )
      returning id`);
    const watched = await db.execute(sql`
      insert into lti_scores (link_id, user_id, score_given, score_maximum, comment)
      select l.id, w.user_id, 1, 1, 'Procedimiento visto completo'
      from watch_positions w
      join lti_links l on l.target_kind = 'procedimiento' and l.target_id = w.procedure_id and l.line_item_url is not null
      join lti_link_members m on m.link_id = l.id and m.user_id = w.user_id
      where w.watched_at is not null
        and not exists (select 1 from lti_scores s where s.link_id = l.id and s.user_id = w.user_id)
      returning id`);
    const ids = [...(await rowsOf(exams)), ...(await rowsOf(watched))].map((row) => row.id);
    for (const id of ids) await deps.schedule(ltiJobKinds.send, { payload: { scoreId: id } });
    return ids.length;
  }

  /**
   * Sends one score; a failure is recorded for the console and thrown, so the job retries with backoff, until
   * `scoreAttempts` tries end it. The score's timestamp is when CxVet recorded it, not when it is sent (AGS 2.0, 3.4):
   * a late retry of an older result then never replaces a newer one in the gradebook, and a score sent again after a
   * crash is the same update.
   */
  async function send(scoreId: string, run: { attempts: number } = { attempts: 1 }): Promise<void> {
    const [row] = await db
      .select({ score: ltiScores, link: ltiLinks, platform: ltiPlatforms, sub: ltiLinkMembers.sub })
      .from(ltiScores)
      .innerJoin(ltiLinks, eq(ltiLinks.id, ltiScores.linkId))
      .innerJoin(ltiPlatforms, eq(ltiPlatforms.id, ltiLinks.platformId))
      .innerJoin(
        ltiLinkMembers,
        sql`${ltiLinkMembers.linkId} = ${ltiScores.linkId} and ${ltiLinkMembers.userId} = ${ltiScores.userId}`,
      )
      .where(eq(ltiScores.id, scoreId));
    if (!row || row.score.status === 'enviada' || !row.link.lineItemUrl) return;
    try {
      await deps.services.postScore(row.platform, row.link.lineItemUrl, {
        sub: row.sub,
        given: row.score.scoreGiven,
        maximum: row.score.scoreMaximum,
        comment: row.score.comment,
        timestamp: row.score.createdAt,
      });
    } catch (error) {
      await db
        .update(ltiScores)
        .set({
          status: 'fallida',
          attempts: sql`${ltiScores.attempts} + 1`,
          lastError: (error instanceof Error ? error.message : String(error)).slice(0, 500),
        })
        .where(eq(ltiScores.id, scoreId));
      if (run.attempts >= scoreAttempts) {
        throw new JobAbandoned(`${error instanceof Error ? error.message : String(error)} (${run.attempts} tries)`);
      }
      throw error;
    }
    await db
      .update(ltiScores)
      .set({ status: 'enviada', attempts: sql`${ltiScores.attempts} + 1`, lastError: null, sentAt: new Date() })
      .where(eq(ltiScores.id, scoreId));
  }

  return { collect, send };
}
