import { asc, eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { organizations } from '#server/db/schema/index.ts';
import { AppError } from '#shared/errors.ts';
import type { AdminOrganization, OrganizationInput } from '#shared/organizations/organizations.admin.schemas.ts';
import { uploadTargets } from '#shared/uploads/uploads.rules.ts';
import type { UploadsService } from '#server/features/uploads/uploads.service.ts';

type OrganizationRow = typeof organizations.$inferSelect;

const toAdmin = (row: OrganizationRow): AdminOrganization => ({
  id: row.id,
  title: row.title,
  type: row.type,
  logoImage: row.logoImage,
  promoImage: row.promoImage,
  promoLink: row.promoLink,
});

/** A promo link typed without a scheme gets https:// so the banner link leaves the site. */
function normalizeLink(link: string): string {
  return /^https?:\/\//i.test(link) ? link : `https://${link.replace(/^\/+/, '')}`;
}

export function createAdminOrganizationsService(deps: { db: Db; uploads: UploadsService }) {
  const { db, uploads } = deps;

  async function list(): Promise<AdminOrganization[]> {
    const rows = await db.select().from(organizations).orderBy(asc(organizations.title));
    return rows.map(toAdmin);
  }

  async function find(id: string) {
    const [row] = await db.select().from(organizations).where(eq(organizations.id, id));
    return row ?? null;
  }

  async function get(id: string): Promise<AdminOrganization> {
    const row = await find(id);
    if (!row) throw new AppError('NOT_FOUND');
    return toAdmin(row);
  }

  /** Creates or replaces an organization; a Universidad has no promo image or link. */
  async function save(id: string, input: OrganizationInput): Promise<AdminOrganization> {
    const isCompany = input.type === 'Empresa';
    const promoImage = isCompany ? input.promoImage : null;
    const promoLink = isCompany && input.promoLink ? normalizeLink(input.promoLink) : null;
    const current = await find(id);
    const folder = `organizations/${id}`;
    const { claimed, obsolete } = await uploads.plan([
      {
        field: 'logoImage',
        next: input.logoImage,
        current: current?.logoImage ?? null,
        folder,
        kinds: uploadTargets['organization-logo'].kinds,
      },
      {
        field: 'promoImage',
        next: promoImage,
        current: current?.promoImage ?? null,
        folder,
        kinds: uploadTargets['organization-promo'].kinds,
      },
    ]);
    // a promo uploaded before switching to Universidad is not kept
    const dropped =
      !isCompany && input.promoImage && input.promoImage !== current?.promoImage ? [input.promoImage] : [];
    const values = { title: input.title, type: input.type, logoImage: input.logoImage, promoImage, promoLink };
    const [row] = await db.transaction(async (tx) => {
      const saved = await tx
        .insert(organizations)
        .values({ id, ...values })
        .onConflictDoUpdate({ target: organizations.id, set: values })
        .returning();
      await uploads.claim(claimed, tx);
      return saved;
    });
    await uploads.removeFiles(obsolete);
    for (const key of dropped) await uploads.discard(key);
    return toAdmin(row!);
  }

  return { list, get, save };
}

export type AdminOrganizationsService = ReturnType<typeof createAdminOrganizationsService>;
