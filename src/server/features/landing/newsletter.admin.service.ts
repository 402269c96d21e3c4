import { eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { siteSettings } from '#server/db/schema/index.ts';
import type { AdminNewsletter } from '#shared/landing/landing.admin.schemas.ts';
import { uploadTargets } from '#shared/uploads/uploads.rules.ts';
import type { UploadsService } from '#server/features/uploads/uploads.service.ts';

export function createAdminNewsletterService(deps: { db: Db; uploads: UploadsService }) {
  const { db, uploads } = deps;

  async function get(): Promise<AdminNewsletter> {
    const [settings] = await db.select().from(siteSettings).where(eq(siteSettings.id, 1));
    return { image: settings?.newsletterImage ?? null };
  }

  /** Assigns the newsletter image; the previous one is deleted. */
  async function save(image: string): Promise<AdminNewsletter> {
    const { image: current } = await get();
    const { claimed, obsolete } = await uploads.plan([
      { field: 'image', next: image, current, folder: 'newsletter', kinds: uploadTargets['newsletter-image'].kinds },
    ]);
    await db.transaction(async (tx) => {
      await tx
        .insert(siteSettings)
        .values({ id: 1, newsletterImage: image })
        .onConflictDoUpdate({ target: siteSettings.id, set: { newsletterImage: image, updatedAt: new Date() } });
      await uploads.claim(claimed, tx);
    });
    await uploads.removeFiles(obsolete);
    return { image };
  }

  return { get, save };
}

export type AdminNewsletterService = ReturnType<typeof createAdminNewsletterService>;
