// Generated content for the benchmarks: procedures with tags, and members, written in bulk SQL.
import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';

const words = [
  'en perra',
  'en gato',
  'de cadera',
  'ocular',
  'dental',
  'abdominal',
  'en conejo',
  'torácica',
  'de rodilla',
  'cutánea',
];
const approaches = ['lateral', 'ventral', 'dorsal', 'medial', 'paramediano'];
const tagNames = [
  'Ortopedia',
  'Oftalmología',
  'Tejidos blandos',
  'Odontología',
  'Neurología',
  'Oncología',
  'Urgencias',
  'Anestesia',
];

/** Procedures `from`..`to` (1-based), older than the demo content, each with two tags. */
export async function insertProcedures(db: Db, from: number, to: number): Promise<void> {
  await db.execute(
    sql`insert into tags (name) select unnest(${sql.raw(`array[${tagNames.map((name) => `'${name}'`).join(',')}]`)}) on conflict do nothing`,
  );
  await db.execute(sql`
    insert into procedures (name, detail, type, species, meta, created_at)
    select 'Procedimiento ' || i || ' ' || (${sql.raw(`array[${words.map((word) => `'${word}'`).join(',')}]`)})[1 + i % ${sql.raw(String(words.length))}],
      'Técnica quirúrgica número ' || i || ' con abordaje ' || (${sql.raw(`array[${approaches.map((word) => `'${word}'`).join(',')}]`)})[1 + i % ${sql.raw(String(approaches.length))}] || ' y cierre por planos.',
      (case when i % 3 = 0 then 'Premium' else 'Gratis' end)::procedure_type,
      (array['Perro', 'Gato', 'Otras especies'])[1 + i % 3]::species,
      'clave' || (i % 97),
      now() - interval '60 days' - i * interval '1 minute'
    from generate_series(${sql.raw(String(Math.trunc(from)))}, ${sql.raw(String(Math.trunc(to)))}) as i`);
  await db.execute(sql`
    insert into procedure_tags (procedure_id, tag_id)
    select p.id, t.id
    from (select id, row_number() over (order by created_at desc) as n from procedures where name like 'Procedimiento %') p
    join (select id, row_number() over (order by name) as n from tags) t on t.n in (1 + p.n % 8, 1 + (p.n + 3) % 8)
    on conflict do nothing`);
}

/** `count` members of every type, as the admin users report sees them. */
export async function insertUsers(db: Db, count: number): Promise<void> {
  await db.execute(sql`
    insert into users (id, name, email, type, annual_plan, payment_day, country, city, phone_number, home_university)
    select gen_random_uuid()::text, 'Usuario ' || i, 'usuario' || i || '@bench.example',
      (case when i % 10 = 0 then 'Premium' when i % 97 = 0 then 'Legacy' else 'Gratis' end)::account_type,
      i % 20 = 0, case when i % 10 = 0 then now() - (i % 300) * interval '1 day' end,
      'México', 'Ciudad ' || (i % 50), '+52155' || lpad(i::text, 8, '0'), case when i % 3 = 0 then 'UNAM' end
    from generate_series(1, ${sql.raw(String(Math.trunc(count)))}) as i`);
}

/** Searches a visitor might type, with the filters beside them: every one a different count. */
export const searchQueries: string[] = [
  'perra',
  'gato',
  'cadera',
  'ocular',
  'lateral',
  'ventral',
  'clave12',
  'cierre',
  'numero 51',
  'ortopedia',
  'xyzzy',
  'conejo',
]
  .flatMap((q) =>
    ['', '&species=Perro', '&type=Premium', '&species=Gato&page=2'].map(
      (filter) => `q=${encodeURIComponent(q)}${filter}`,
    ),
  )
  .concat(['species=Perro', 'type=Premium', 'species=Gato&type=Gratis', 'page=40']);
