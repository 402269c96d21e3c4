import { describe, expect, it } from 'vitest';
import { useConsoleTestApp } from '#server/testing/console-test-app.ts';
import { randomUUID } from 'node:crypto';
import { landingSlides, siteSettings } from '#server/db/schema/index.ts';
import { messages } from '#shared/messages.ts';
import { uploadSample } from '#server/features/uploads/uploads.testing.ts';

const { state, call } = useConsoleTestApp();

describe('landing photos', () => {
  it('saves the list order as 1-based positions, the shared time and empty titles for videos; the hero follows', async () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const slide = async (id: string, fileName: string, title: string) => ({
      id,
      media: await uploadSample(state.t, state.admin.cookie, 'landing-media', fileName),
      isVideo: false,
      title,
      subtitle: `Sub ${title}`,
      textColor: 'Blanco',
    });
    const slides = [
      await slide(a, 'a.jpg', 'Primera'),
      await slide(b, 'b.mp4', 'Video'),
      await slide(c, 'c.png', 'Tercera'),
    ];
    const saved = await call('PUT', '/api/admin/landing', { slideSeconds: 8, slides });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().slides[1]).toMatchObject({ id: b, isVideo: true, title: '', subtitle: '' });

    const reordered = [slides[0]!, slides[2]!, { ...slides[1]!, title: '' }];
    await call('PUT', '/api/admin/landing', { slideSeconds: 8, slides: reordered });
    const rows = await state.t.db.select().from(landingSlides);
    expect(Object.fromEntries(rows.map((row) => [row.id, row.position]))).toEqual({ [a]: 1, [c]: 2, [b]: 3 });
    const [settings] = await state.t.db.select().from(siteSettings);
    expect(settings?.slideSeconds).toBe(8);
    const hero = (await state.t.app.inject({ method: 'GET', url: '/api/landing' })).json();
    expect(hero.slides.map((s: { id: string }) => s.id)).toEqual([a, c, b]);
    expect(hero.slideSeconds).toBe(8);

    await call('PUT', '/api/admin/landing', { slideSeconds: 5, slides: [slides[0]!] });
    expect(await state.t.storage.stat(slides[1]!.media)).toBeNull();
    expect(await state.t.storage.stat(slides[2]!.media)).toBeNull();
  });
});

describe('newsletter image', () => {
  it('assigns the image and deletes the previous one', async () => {
    const first = await uploadSample(state.t, state.admin.cookie, 'newsletter-image', 'boletin.png');
    expect((await call('PUT', '/api/admin/newsletter', { image: first })).json()).toEqual({ image: first });
    const second = await uploadSample(state.t, state.admin.cookie, 'newsletter-image', 'boletin2.jpg');
    await call('PUT', '/api/admin/newsletter', { image: second });
    expect((await call('GET', '/api/admin/newsletter')).json()).toEqual({ image: second });
    expect(await state.t.storage.stat(first)).toBeNull();
    const [settings] = await state.t.db.select().from(siteSettings);
    expect(settings?.newsletterImage).toBe(second);
  });

  it('refuses a key outside the newsletter folder', async () => {
    const other = await uploadSample(state.t, state.admin.cookie, 'event-image', 'evento.png');
    expect((await call('PUT', '/api/admin/newsletter', { image: other })).json().fields).toEqual({
      image: messages.invalidFileFormat,
    });
  });
});
