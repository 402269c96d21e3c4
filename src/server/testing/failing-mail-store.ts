import { sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';

/**
 * Makes every write of a mail fail (an outbox row, a `mail.send` job), as a crash just after the write it follows
 * from would; the function returned puts the tables back.
 */
export async function failMailWrites(db: Db): Promise<() => Promise<void>> {
  await db.execute(
    sql`create function fail_mail_write() returns trigger language plpgsql as $$ begin raise exception 'simulated crash'; end $$`,
  );
  await db.execute(
    sql`create trigger fail_mail_write before insert on mail_outbox for each row execute function fail_mail_write()`,
  );
  await db.execute(
    sql`create trigger fail_mail_write before insert on jobs for each row when (new.kind = 'mail.send') execute function fail_mail_write()`,
  );
  return async () => {
    await db.execute(sql`drop trigger fail_mail_write on mail_outbox`);
    await db.execute(sql`drop trigger fail_mail_write on jobs`);
    await db.execute(sql`drop function fail_mail_write()`);
  };
}
