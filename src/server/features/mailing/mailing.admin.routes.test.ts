import { describe, expect, it } from 'vitest';
import { createTestApp, testPublicUrl } from '#server/testing/test-app.ts';
import { useConsoleTestApp } from '#server/testing/console-test-app.ts';
import { eq } from 'drizzle-orm';
import { createReadStream } from 'node:fs';
import { createUser, signedInAs } from '#server/testing/factories.ts';
import { bulkMailDeliveries, mailOutbox, users } from '#server/db/schema/index.ts';

const { state, call: send } = useConsoleTestApp({ type: 'Admin', email: 'jefa@example.com', name: 'Jefa' });
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie?: string, payload?: object) =>
  send(method, url, payload, cookie ?? null);

describe('bulk e-mail', () => {
  it('checks the fields with the spec messages', async () => {
    const empty = await call('POST', '/api/admin/mailing', state.admin.cookie, { subject: '', title: '', message: '' });
    expect(empty.json().fields).toMatchObject({
      subject: 'Debes llenar este campo.',
      title: 'Debes llenar este campo.',
    });
    const noBody = await call('POST', '/api/admin/mailing', state.admin.cookie, {
      subject: 'A',
      title: 'B',
      message: '',
    });
    expect(noBody.json().fields).toEqual({ message: 'Debes agregar un mensaje o seleccionar una imagen' });
  });

  it('queues a mail to exactly the opted-in members, sends each once and lets them unsubscribe', async () => {
    const fresh = await createTestApp();
    try {
      const boss = await signedInAs(fresh, { type: 'Admin' });
      const yes = await createUser(fresh, { email: 'si@example.com', promoMail: true });
      await createUser(fresh, { email: 'tambien@example.com', promoMail: true, type: 'Premium' });
      await createUser(fresh, { email: 'no@example.com', promoMail: false });
      const response = await fresh.app.inject({
        method: 'POST',
        url: '/api/admin/mailing',
        headers: { cookie: boss.cookie, origin: testPublicUrl },
        payload: {
          subject: 'Novedades\r\nBcc: todos@evil.example',
          title: 'Nuevos videos',
          message: 'Hola\nHay cirugías nuevas',
        },
      });
      expect(response.statusCode).toBe(202);
      expect(response.json().recipients).toBe(2);
      expect(await fresh.db.select().from(mailOutbox)).toHaveLength(0);
      await fresh.app.services.jobs.runDue();
      await fresh.app.services.jobs.runDue();
      const mails = await fresh.db.select().from(mailOutbox);
      expect(mails.map((mail) => mail.to).sort()).toEqual(['si@example.com', 'tambien@example.com']);
      expect(mails.every((mail) => mail.subject === 'Novedades Bcc: todos@evil.example')).toBe(true);
      const deliveries = await fresh.db.select().from(bulkMailDeliveries);
      expect(deliveries.every((delivery) => delivery.sentAt && delivery.attempts === 1)).toBe(true);

      const link = /http\S+\/api\/mailing\/unsubscribe\?\S+/.exec(
        mails.find((mail) => mail.to === 'si@example.com')!.text,
      )![0];
      const url = new URL(link);
      const forged = await fresh.app.inject({ url: `${url.pathname}?u=${url.searchParams.get('u')}&t=forged` });
      expect(forged.statusCode).toBe(400);
      const unsubscribed = await fresh.app.inject({
        method: 'POST',
        url: `${url.pathname}${url.search}`,
        headers: { accept: 'text/html' },
      });
      expect(unsubscribed.statusCode).toBe(200);
      expect(unsubscribed.body).toContain('ya no recibirás correos promocionales');
      const [row] = await fresh.db.select().from(users).where(eq(users.id, yes.id));
      expect(row!.promoMail).toBe(false);
    } finally {
      await fresh.close();
    }
  });

  it('sends an uploaded image with the mail and refuses any other file key', async () => {
    const fresh = await createTestApp();
    try {
      const boss = await signedInAs(fresh, { type: 'Admin' });
      await createUser(fresh, { email: 'img@example.com', promoMail: true });
      const post = (image: string) =>
        fresh.app.inject({
          method: 'POST',
          url: '/api/admin/mailing',
          headers: { cookie: boss.cookie, origin: testPublicUrl },
          payload: { subject: 'S', title: 'Cartel', message: '', image },
        });
      const { key } = await fresh.app.services.uploads.store({
        target: 'bulk-mail-image',
        fileName: 'cartel.png',
        stream: createReadStream('assets/demo/logo.png'),
      });
      expect((await post('procedures/x/1_video.mp4')).json().fields).toEqual({
        image: 'El formato del archivo no es correcto.',
      });
      expect((await post(key)).statusCode).toBe(202);
      await fresh.app.services.jobs.runDue();
      const [mail] = await fresh.db.select().from(mailOutbox);
      expect(mail!.html).toContain(`${testPublicUrl}/media/${key}`);
      expect(await fresh.app.services.uploads.isPending(key)).toBe(false);
    } finally {
      await fresh.close();
    }
  });

  it('never mails twice a recipient whose send was cut off by a restart', async () => {
    const fresh = await createTestApp();
    try {
      const boss = await signedInAs(fresh, { type: 'Admin' });
      await createUser(fresh, { email: 'a@example.com', promoMail: true });
      await createUser(fresh, { email: 'b@example.com', promoMail: true });
      const created = await fresh.app.inject({
        method: 'POST',
        url: '/api/admin/mailing',
        headers: { cookie: boss.cookie, origin: testPublicUrl },
        payload: { subject: 'S', title: 'T', message: 'M' },
      });
      // the previous process had claimed a@ (attempt marked) and died before recording the result
      const [userA] = await fresh.db.select().from(users).where(eq(users.email, 'a@example.com'));
      await fresh.db.update(bulkMailDeliveries).set({ attempts: 1 }).where(eq(bulkMailDeliveries.userId, userA!.id));
      await fresh.app.services.jobs.runDue();
      expect((await fresh.db.select().from(mailOutbox)).map((mail) => mail.to)).toEqual(['b@example.com']);
      expect(created.statusCode).toBe(202);
    } finally {
      await fresh.close();
    }
  });
});
