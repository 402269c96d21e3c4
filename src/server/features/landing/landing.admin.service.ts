import { asc, eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { landingSlides, siteSettings } from '#server/db/schema/index.ts';
import { defaultSlideSeconds } from '#shared/landing/landing.rules.ts';
import type { LandingInput } from '#shared/landing/landing.admin.schemas.ts';
import { uploadTargets } from '#shared/uploads/uploads.rules.ts';
import type { UploadsService } from '#server/features/uploads/uploads.service.ts';

export function createAdminLandingService(deps: { db: Db; uploads: UploadsService }) {
  const { db, uploads } = deps;

  async function get(): Promise<LandingInput> {
    const [slides, [settings]] = await Promise.all([
      db.select().from(landingSlides).orderBy(asc(landingSlides.position)),
      db.select().from(siteSettings).where(eq(siteSettings.id, 1)),
    ]);
    return {
      slideSeconds: settings?.slideSeconds ?? defaultSlideSeconds,
      slides: slides.map((slide) => ({
        id: slide.id,
        media: slide.media,
        isVideo: slide.isVideo,
        title: slide.title,
        subtitle: slide.subtitle,
        textColor: slide.textColor,
      })),
    };
  }

  /** Saves the whole carousel: list order becomes the 1-based position; removed slides lose their files. */
  async function save(input: LandingInput): Promise<LandingInput> {
    const existing = await db.select().from(landingSlides);
    const byId = new Map(existing.map((slide) => [slide.id, slide]));
    const kept = new Set(input.slides.map((slide) => slide.id));
    const { claimed, obsolete } = await uploads.plan(
      input.slides.map((slide, index) => ({
        field: `slides.${index}.media`,
        next: slide.media,
        current: byId.get(slide.id)?.media ?? null,
        folder: 'landing_page',
        kinds: uploadTargets['landing-media'].kinds,
      })),
    );
    const removed = existing.filter((slide) => !kept.has(slide.id));
    const pendingVideos = new Set(
      (await Promise.all(claimed.map(async (key) => ((await uploads.isPending(key, 'video')) ? key : null)))).filter(
        Boolean,
      ),
    );
    await db.transaction(async (tx) => {
      for (const slide of removed) await tx.delete(landingSlides).where(eq(landingSlides.id, slide.id));
      for (const [index, slide] of input.slides.entries()) {
        const previous = byId.get(slide.id);
        // the media's own kind decides, not the browser's flag
        const isVideo = slide.media === previous?.media ? previous.isVideo : pendingVideos.has(slide.media);
        const values = {
          media: slide.media,
          isVideo,
          // spec 2 §4: a video entry saves title and subtitle empty
          title: isVideo ? '' : slide.title,
          subtitle: isVideo ? '' : slide.subtitle,
          textColor: slide.textColor,
          position: index + 1,
        };
        await tx
          .insert(landingSlides)
          .values({ id: slide.id, ...values })
          .onConflictDoUpdate({ target: landingSlides.id, set: values });
      }
      await tx
        .insert(siteSettings)
        .values({ id: 1, slideSeconds: input.slideSeconds })
        .onConflictDoUpdate({
          target: siteSettings.id,
          set: { slideSeconds: input.slideSeconds, updatedAt: new Date() },
        });
      await uploads.claim(claimed, tx);
    });
    await uploads.removeFiles([...obsolete, ...removed.map((slide) => slide.media)]);
    return get();
  }

  return { get, save };
}

export type AdminLandingService = ReturnType<typeof createAdminLandingService>;
