// The busy evening's class (docs/performance.md): 300 members of one aula with a Premium video, the first 100 enrolled
// in a diploma with one exam, written in SQL with one argon2id hash for all.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { hash } from '@node-rs/argon2';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { argon2Options } from '#server/features/accounts/auth.ts';
import {
  classroomProcedures,
  classrooms,
  classroomUsers,
  diplomaUsers,
  diplomaVideos,
  diplomas,
  examQuestions,
  exams,
  organizations,
  procedures,
  users,
} from '#server/db/schema/index.ts';
import { benchVideo } from './media.ts';
import { password } from './common.ts';

export const classSize = Number(process.env.BENCH_EVENING_MEMBERS ?? 300);
export const examTakers = 50;
export const emailOf = (n: number) => `alumna${n}@noche.example`;

export type Evening = { classroomId: string; procedureId: string; diplomaId: string; examId: string; videoKey: string };

/** The class, its aula with a Premium video, and a diploma's exam for its first 100 (the evening's 50 and 50 alone). */
export async function prepareEvening(database: Database, dataDir: string): Promise<Evening> {
  const { db } = database;
  const passwordHash = await hash(password, argon2Options);
  const [procedure] = await db
    .insert(procedures)
    .values({ name: 'Cirugía de la noche', detail: 'Clase en vivo', species: 'Perro', type: 'Premium' })
    .returning({ id: procedures.id });
  const videoKey = `procedures/${procedure!.id}/noche.mp4`;
  await mkdir(path.join(dataDir, 'uploads', 'procedures', procedure!.id), { recursive: true });
  await writeFile(path.join(dataDir, 'uploads', ...videoKey.split('/')), benchVideo());
  await db.update(procedures).set({ fullVideo: videoKey }).where(eq(procedures.id, procedure!.id));
  await db.execute(sql`
    insert into users (id, name, email, type, payment_day)
    select gen_random_uuid()::text, 'Alumna ' || i, 'alumna' || i || '@noche.example',
      (case when i <= ${2 * examTakers} then 'Premium' else 'Gratis' end)::account_type,
      case when i <= ${2 * examTakers} then now() end
    from generate_series(1, ${classSize}) as i`);
  const members = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(sql`${users.email} like 'alumna%@noche.example'`);
  await db.execute(sql`
    insert into auth_accounts (id, account_id, provider_id, user_id, password)
    select gen_random_uuid()::text, id, 'credential', id, ${passwordHash} from users
    where email like 'alumna%@noche.example'`);
  const [organization] = await db
    .insert(organizations)
    .values({ title: 'Universidad de la noche', type: 'Universidad' })
    .returning({ id: organizations.id });
  const [classroom] = await db
    .insert(classrooms)
    .values({
      title: 'Aula de la noche',
      accessType: 'Acceso controlado',
      organizationType: 'Universidad',
      organizationId: organization!.id,
      expiresAt: new Date(Date.now() + 30 * 86_400_000),
    })
    .returning({ id: classrooms.id });
  await db.insert(classroomProcedures).values({ classroomId: classroom!.id, procedureId: procedure!.id });
  await db.insert(classroomUsers).values(members.map((member) => ({ classroomId: classroom!.id, userId: member.id })));
  const [diploma] = await db
    .insert(diplomas)
    .values({ title: 'Diplomado de la noche', descriptionHtml: '<p>Noche</p>', costCents: 15000 })
    .returning({ id: diplomas.id });
  await db.insert(diplomaVideos).values({ diplomaId: diploma!.id, position: 1, title: 'Clase 1', description: 'Uno' });
  const [exam] = await db
    .insert(exams)
    .values({ diplomaId: diploma!.id, title: 'Examen de la noche', afterVideoPosition: 1 })
    .returning({ id: exams.id });
  await db.insert(examQuestions).values(
    Array.from({ length: 5 }, (_, index) => ({
      examId: exam!.id,
      position: index + 1,
      question: `Pregunta ${index + 1}`,
      answers: ['Correcta', 'Incorrecta A', 'Incorrecta B'],
      correctAnswer: 0,
    })),
  );
  const takers = new Set(Array.from({ length: 2 * examTakers }, (_, index) => emailOf(index + 1)));
  await db
    .insert(diplomaUsers)
    .values(
      members
        .filter((member) => takers.has(member.email))
        .map((member) => ({ diplomaId: diploma!.id, userId: member.id })),
    );
  return {
    classroomId: classroom!.id,
    procedureId: procedure!.id,
    diplomaId: diploma!.id,
    examId: exam!.id,
    videoKey,
  };
}
