import { and, asc, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { landingSlides, organizations, siteSettings } from '#server/db/schema/index.ts';
import type { Landing } from '#shared/landing/landing.schemas.ts';
import { defaultHeroSeconds } from '#shared/landing/landing.rules.ts';
import type { UserRow } from '#server/features/accounts/accounts.service.ts';
import type { CatalogService } from '#server/features/catalog/catalog.service.ts';
import { mediaUrl } from '#server/services/media-url.ts';

const toLogoLink = (organization: typeof organizations.$inferSelect) => ({
  id: organization.id,
  title: organization.title,
  logoUrl: mediaUrl(organization.logoImage)!,
  link: organization.promoLink,
});

export function createLandingService(deps: { db: Db; catalog: CatalogService }) {
  const { db, catalog } = deps;

  /** Everything the landing page shows, in one request. */
  async function get(user: UserRow | null): Promise<Landing> {
    const [slides, [settings], sponsors, endorsers, sampleProcedures] = await Promise.all([
      db.select().from(landingSlides).orderBy(asc(landingSlides.position)),
      db.select().from(siteSettings).where(eq(siteSettings.id, 1)),
      db
        .select()
        .from(organizations)
        .where(and(eq(organizations.type, 'Empresa'), isNotNull(organizations.logoImage)))
        .orderBy(asc(organizations.title)),
      db
        .select()
        .from(organizations)
        .where(
          and(
            eq(organizations.type, 'Universidad'),
            eq(organizations.isPrivate, false),
            isNotNull(organizations.logoImage),
          ),
        )
        .orderBy(asc(organizations.title)),
      catalog.samples(user, 3),
    ]);
    return {
      slides: slides.map((slide) => ({
        id: slide.id,
        mediaUrl: mediaUrl(slide.media)!,
        isVideo: slide.isVideo,
        title: slide.title,
        subtitle: slide.subtitle,
        textColor: slide.textColor,
      })),
      slideSeconds: settings?.slideSeconds ?? defaultHeroSeconds,
      sampleProcedures,
      sponsors: sponsors.map(toLogoLink),
      endorsements: endorsers.map(toLogoLink),
    };
  }
  /**
   * The picture the home page paints first, for its HTML to ask for it early (page-hints.ts): the carousel's first
   * slide when there is a carousel (two slides or more) and that slide is a picture; the default hero otherwise.
   */
  async function heroPicture(): Promise<string | null> {
    const firstTwo = await db
      .select({ media: landingSlides.media, isVideo: landingSlides.isVideo })
      .from(landingSlides)
      .orderBy(asc(landingSlides.position))
      .limit(2);
    const first = firstTwo[0];
    return firstTwo.length > 1 && first && !first.isVideo ? mediaUrl(first.media) : null;
  }

  return { get, heroPicture };
}

export type LandingService = ReturnType<typeof createLandingService>;
