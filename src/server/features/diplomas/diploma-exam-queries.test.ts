import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '#server/testing/test-app.ts';
import { signedInAs } from '#server/testing/factories.ts';
import { diplomaUsers } from '#server/db/schema/index.ts';
import { createDiploma, memberRequest, submitExam } from './diplomas.testing.ts';

// An exam's submission holds the member's enrolment row locked for its whole transaction; on the busy evening 50
// arrive within 5 s beside a class signing in, and each statement waits its turn on the pool or the one connection
// (issue #39, decision 055). Counted through Drizzle's logger.
const queries: string[] = [];
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({}, undefined, { onQuery: (query) => queries.push(query) });
});
afterAll(async () => t.close());

describe('the statements of an exam submission', () => {
  it('reads the sequence once: the progress after the result comes from that read, and the last exam still completes the diploma', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium' });
    const diploma = await createDiploma(t, { memberIds: [user.id], videos: 2, examQuestions: [3, 3] });
    const [first, last] = diploma.exams;
    // the member's session and the diploma are known before the counted submission
    await memberRequest(t, cookie, 'GET', `/api/diplomas/${diploma.id}/course`);
    expect((await submitExam(t, cookie, diploma.id, first!, 3)).json()).toMatchObject({ progressPercent: 50 });

    queries.length = 0;
    const graded = await submitExam(t, cookie, diploma.id, last!, 3);
    expect(graded.json()).toEqual({ scorePercent: 100, passed: true, progressPercent: 100 });
    // from the diploma on (before it, the member's session when it is not remembered)
    // (PostgreSQL's driver logs the transaction's begin and commit too; PGlite's does not)
    const submission = queries
      .slice(queries.findIndex((query) => /from "diplomas"/.test(query)))
      .filter((query) => !/^(begin|commit)\b/i.test(query));
    expect(submission.filter((query) => /from "diploma_videos"/.test(query))).toHaveLength(1);
    // the diploma, the enrolment locked, the sequence (videos, exams, completions, results, watched time), the
    // questions with their order as shown, the answers, the result and the completion: 12, the sequence read twice
    // made 17
    expect(submission, submission.join('\n')).toHaveLength(12);
    const [enrolment] = await t.db
      .select({ completedAt: diplomaUsers.completedAt })
      .from(diplomaUsers)
      .where(and(eq(diplomaUsers.diplomaId, diploma.id), eq(diplomaUsers.userId, user.id)));
    expect(enrolment?.completedAt).not.toBeNull();
  });

  it('a failed last exam leaves the diploma open, and its progress counts the failed result as not passed', async () => {
    const { cookie, user } = await signedInAs(t, { type: 'Premium' });
    const diploma = await createDiploma(t, { memberIds: [user.id], examQuestions: [5, 5] });
    expect((await submitExam(t, cookie, diploma.id, diploma.exams[0]!, 5)).json().progressPercent).toBe(50);
    expect((await submitExam(t, cookie, diploma.id, diploma.exams[1]!, 1)).json()).toEqual({
      scorePercent: 20,
      passed: false,
      progressPercent: 50,
    });
    const course = (await memberRequest(t, cookie, 'GET', `/api/diplomas/${diploma.id}/course`)).json();
    expect(course).toMatchObject({ progressPercent: 50, completedAt: null });
  });
});
