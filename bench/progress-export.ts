// Issue #35: an aula's and a diploma's progress exported as xlsx at 10,000 members, with bounded memory.
import { sql } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { classrooms, diplomaVideos, diplomas, examQuestions, exams, organizations } from '#server/db/schema/index.ts';

type Row = { figure: string; value: string; goal: string; holds: boolean | null };

const memberCount = 10_000;
const videoCount = 10;
const rssMiB = () => process.memoryUsage().rss / 1024 / 1024;

/** 10,000 Premium members in one aula of 10 videos and one diploma of 5 videos and 2 exams, some of it done. */
async function seedProgress(database: Database) {
  const { db } = database;
  await db.execute(sql`
    insert into users (id, name, email, type)
    select gen_random_uuid()::text, 'Alumno ' || i, 'progreso' || i || '@bench.example', 'Premium'::account_type
    from generate_series(1, ${sql.raw(String(memberCount))}) as i`);
  const [organization] = await db
    .insert(organizations)
    .values({ title: 'Universidad Bench', type: 'Empresa' })
    .returning();
  const [classroom] = await db
    .insert(classrooms)
    .values({
      title: 'Aula de 10.000',
      accessType: 'Acceso controlado',
      organizationType: 'Empresa',
      organizationId: organization!.id,
      expiresAt: new Date(Date.now() + 365 * 86_400_000),
    })
    .returning();
  await db.execute(sql`
    insert into classroom_procedures (classroom_id, procedure_id, position)
    select ${classroom!.id}, id, row_number() over (order by id) from procedures order by id limit ${videoCount}`);
  await db.execute(sql`
    insert into classroom_users (classroom_id, user_id)
    select ${classroom!.id}, id from users where email like 'progreso%@bench.example'`);
  // each member has watched about a third of the videos, some fully
  await db.execute(sql`
    insert into watched_time (user_id, procedure_id, duration_seconds, watched_seconds, last_saved_at, watched_at)
    select u.user_id, p.procedure_id, 600, 600 * (abs(hashtext(u.user_id || p.procedure_id)) % 100) / 100.0, now(),
      case when abs(hashtext(u.user_id || p.procedure_id)) % 100 >= 90 then now() end
    from classroom_users u join classroom_procedures p on p.classroom_id = u.classroom_id
    where u.classroom_id = ${classroom!.id} and abs(hashtext(p.procedure_id || u.user_id)) % 3 = 0`);

  const [diploma] = await db
    .insert(diplomas)
    .values({ title: 'Diplomado de 10.000', descriptionHtml: '<p>Bench</p>', isActive: true })
    .returning();
  const videos = await db
    .insert(diplomaVideos)
    .values(
      Array.from({ length: 5 }, (_, index) => ({
        diplomaId: diploma!.id,
        position: index + 1,
        title: `Clase ${index + 1}`,
      })),
    )
    .returning({ id: diplomaVideos.id });
  const examRows = await db
    .insert(exams)
    .values(
      [1, 3].map((position) => ({ diplomaId: diploma!.id, title: `Examen ${position}`, afterVideoPosition: position })),
    )
    .returning({ id: exams.id });
  await db.execute(sql`
    insert into diploma_users (diploma_id, user_id)
    select ${diploma!.id}, id from users where email like 'progreso%@bench.example'`);
  for (const video of videos) {
    await db.execute(sql`
      insert into diploma_video_completions (video_id, user_id)
      select ${video.id}, user_id from diploma_users
      where diploma_id = ${diploma!.id} and abs(hashtext(user_id || ${video.id})) % 2 = 0`);
  }
  for (const exam of examRows) {
    await db.insert(examQuestions).values(
      Array.from({ length: 5 }, (_, index) => ({
        examId: exam.id,
        position: index + 1,
        question: `Pregunta ${index + 1}`,
        answers: ['A', 'B', 'C', 'D'],
        correctAnswer: index % 4,
      })),
    );
    // a third of the members took each exam, answering every question
    await db.execute(sql`
      insert into exam_answers (question_id, user_id, answer)
      select q.id, u.user_id, abs(hashtext(u.user_id || q.id)) % 4
      from diploma_users u cross join exam_questions q
      where u.diploma_id = ${diploma!.id} and q.exam_id = ${exam.id} and abs(hashtext(u.user_id || ${exam.id})) % 3 = 0`);
    await db.execute(sql`
      insert into exam_results (exam_id, user_id, score_percent, passed)
      select ${exam.id}, user_id, abs(hashtext(user_id)) % 100, abs(hashtext(user_id)) % 100 >= 70 from diploma_users
      where diploma_id = ${diploma!.id} and abs(hashtext(user_id || ${exam.id})) % 3 = 0`);
  }
  return { classroomId: classroom!.id, organizationId: organization!.id, diplomaId: diploma!.id };
}

async function download(url: string, cookie: string) {
  const before = rssMiB();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB())), 25);
  const started = performance.now();
  const response = await fetch(url, { headers: { cookie } });
  let bytes = 0;
  for await (const chunk of response.body!) bytes += (chunk as Uint8Array).length;
  const ms = performance.now() - started;
  clearInterval(sampler);
  return { ok: response.ok, ms, bytes, growth: peak - before };
}

/** Both progress exports as the Admin downloads them, with this process's RSS sampled meanwhile. */
export async function measureProgressExports(options: {
  database: Database;
  baseUrl: string;
  signIn: (baseUrl: string, email: string, from?: string) => Promise<string>;
}): Promise<Row[]> {
  const { classroomId, organizationId, diplomaId } = await seedProgress(options.database);
  const candidates = `/api/admin/classrooms/candidates?organizationId=${organizationId}&classroomId=${classroomId}`;
  const cookie = await options.signIn(options.baseUrl, 'bench-admin@bench.example');
  const rows: Row[] = [];
  // right after the import, before any maintenance has analyzed the tables: the statistics still say the aula and
  // the diploma are small, as on a site where a university just imported its members (decision 060)
  for (const [what, url] of [
    ['aula progress screen (totals and first page)', `/api/admin/classrooms/${classroomId}/progress`],
    ['diploma progress screen (totals and first page)', `/api/admin/diplomas/${diplomaId}/progress`],
    ["aula's form", `/api/admin/classrooms/${classroomId}`],
    ["aula's users table, first page", candidates],
    ["aula's users table, members only by name, page 500", `${candidates}&assignedOnly=true&sort=name&page=500`],
    ["diploma's members tab", `/api/admin/diplomas/${diplomaId}/users`],
    ["diploma's statistics tab (scores, donut, per question)", `/api/admin/diplomas/${diplomaId}/statistics`],
  ] as const) {
    const started = performance.now();
    const response = await fetch(`${options.baseUrl}${url}`, { headers: { cookie } });
    const bytes = (await response.arrayBuffer()).byteLength;
    const ms = performance.now() - started;
    rows.push({
      figure: `${what} at ${memberCount} members, right after their import`,
      value: `${(ms / 1000).toFixed(2)} s, ${(bytes / 1024).toFixed(0)} KiB`,
      goal: '< 2 s',
      holds: response.ok && ms < 2000,
    });
  }
  for (const [what, url] of [
    ['aula', `${options.baseUrl}/api/admin/classrooms/${classroomId}/progress.xlsx`],
    ['diploma', `${options.baseUrl}/api/admin/diplomas/${diplomaId}/progress.xlsx`],
  ] as const) {
    const figures = await download(url, cookie);
    rows.push({
      figure: `${what} progress xlsx at ${memberCount} members`,
      value: `${(figures.ms / 1000).toFixed(1)} s, ${(figures.bytes / 1024).toFixed(0)} KiB, RSS growth ${figures.growth.toFixed(0)} MiB`,
      goal: '< 10 s, RSS growth < 64 MiB',
      holds: figures.ok && figures.ms < 10_000 && figures.growth < 64,
    });
  }
  return rows;
}
