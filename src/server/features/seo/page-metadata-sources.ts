import type { CatalogService } from '#server/features/catalog/catalog.service.ts';
import type { DiplomasService } from '#server/features/diplomas/diplomas.service.ts';
import type { EventsService } from '#server/features/events/events.service.ts';
import type { CertificatesService } from '#server/features/diplomas/certificates.service.ts';
import { summary, type MetadataSources } from './page-metadata.ts';

/** What the server-rendered head of each public page reads: public fields only, never a member's content. */
export function pageMetadataSources({
  catalog,
  diplomas,
  events,
  certificates,
}: {
  catalog: Pick<CatalogService, 'find'>;
  diplomas: Pick<DiplomasService, 'findActive'>;
  events: Pick<EventsService, 'activeEvents'>;
  certificates: Pick<CertificatesService, 'verify'>;
}): MetadataSources {
  return {
    procedure: async (id) => {
      const row = await catalog.find(id);
      if (!row) return null;
      return {
        name: row.name,
        // the public description only: the card's text, never the guide or the full video
        description: summary(row.detail),
        isFree: row.type === 'Gratis',
        hasPicture: row.previewImage !== null,
        createdAt: row.createdAt,
        updatedAt: row.updatedAt,
        durationSeconds: null,
      };
    },
    diploma: async (id) => {
      const row = await diplomas.findActive(id).catch(() => null);
      if (!row || row.isTest) return null;
      return {
        title: row.title,
        descriptionHtml: row.descriptionHtml,
        organizationName: row.organizationName,
        costCents: row.costCents,
        hasPicture: row.previewImage !== null,
      };
    },
    events: events.activeEvents,
    certificate: async (code) => {
      const found = await certificates.verify(code).catch(() => null);
      return found
        ? {
            holderName: found.holderName,
            diplomaTitle: found.diplomaTitle,
            issuerName: found.issuerName,
            completedAt: new Date(found.completedAt),
            isRevoked: found.revokedAt !== null,
          }
        : null;
    },
  };
}
