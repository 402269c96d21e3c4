import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '#server/testing/test-app.ts';
import { createProcedure, signedInAs } from '#server/testing/factories.ts';
import { eq } from 'drizzle-orm';
import { landingSlides, organizations, siteSettings } from '#server/db/schema/index.ts';
import { createLandingService } from './landing.service.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('GET /api/landing', () => {
  it("works on an empty site with the spec's default display time of 6 seconds", async () => {
    const body = (await t.app.inject({ url: '/api/landing' })).json();
    expect(body).toEqual({ slides: [], slideSeconds: 6, sampleProcedures: [], sponsors: [], endorsements: [] });
  });

  it('orders slides by position, shows three newest procedures and company sponsors', async () => {
    await t.db.insert(siteSettings).values({ id: 1, slideSeconds: 8 });
    await t.db.insert(landingSlides).values([
      { media: 'landing_page/2_b.jpg', title: 'Segunda', position: 2, textColor: 'Negro' },
      { media: 'landing_page/1_a.mp4', isVideo: true, position: 1 },
    ]);
    await t.db.insert(organizations).values([
      {
        title: 'Patrocinador',
        type: 'Empresa',
        logoImage: 'organizations/x/1_logo.png',
        promoLink: 'https://ejemplo.com',
      },
      {
        title: 'Universidad',
        type: 'Universidad',
        logoImage: 'organizations/y/1_logo.png',
        promoLink: 'https://uni.example.org',
      },
      { title: 'Instituto privado', type: 'Universidad', isPrivate: true, logoImage: 'organizations/z/1_logo.png' },
      { title: 'Universidad sin logo', type: 'Universidad' },
    ]);
    for (let index = 0; index < 5; index++) {
      await createProcedure(t, {
        name: `P${index}`,
        type: 'Premium',
        createdAt: new Date(Date.UTC(2026, 0, index + 1)),
      });
    }
    const { cookie } = await signedInAs(t, { type: 'Premium' });
    const body = (await t.app.inject({ url: '/api/landing', headers: { cookie } })).json();
    expect(body.slideSeconds).toBe(8);
    expect(body.slides.map((slide: { mediaUrl: string }) => slide.mediaUrl)).toEqual([
      '/media/landing_page/1_a.mp4',
      '/media/landing_page/2_b.jpg',
    ]);
    expect(body.sampleProcedures.map((card: { name: string }) => card.name)).toEqual(['P4', 'P3', 'P2']);
    expect(body.sampleProcedures.every((card: { isLocked: boolean }) => !card.isLocked)).toBe(true);
    expect(body.sponsors).toEqual([
      {
        id: expect.any(String),
        title: 'Patrocinador',
        logoUrl: '/media/organizations/x/1_logo.png',
        link: 'https://ejemplo.com',
      },
    ]);
  });

  it('lists public universities with a logo as endorsements, never private ones', async () => {
    const body = (await t.app.inject({ url: '/api/landing' })).json();
    expect(body.endorsements).toEqual([
      {
        id: expect.any(String),
        title: 'Universidad',
        logoUrl: '/media/organizations/y/1_logo.png',
        link: 'https://uni.example.org',
      },
    ]);
  });
});

describe("the home page's first picture, named in its HTML (page-hints.ts)", () => {
  it("is the carousel's first slide when it is a picture and there are two slides or more", async () => {
    const landing = createLandingService({ db: t.db, catalog: t.app.services.catalog });
    await t.db.delete(landingSlides);
    expect(await landing.heroPicture()).toBeNull();
    await t.db.insert(landingSlides).values({ media: 'landing_page/1_solo.jpg', position: 1 });
    // one slide: the page shows the default hero, not this picture
    expect(await landing.heroPicture()).toBeNull();
    await t.db.insert(landingSlides).values({ media: 'landing_page/0_video.mp4', isVideo: true, position: 0 });
    // the first slide is a video
    expect(await landing.heroPicture()).toBeNull();
    await t.db.update(landingSlides).set({ position: 5 }).where(eq(landingSlides.media, 'landing_page/0_video.mp4'));
    expect(await landing.heroPicture()).toBe('/media/landing_page/1_solo.jpg');
  });
});
