import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '#shared/errors.ts';
import { uuidPattern } from '#shared/uuid.ts';
import type { SeoService } from './seo.service.ts';

const previewParams = z.object({
  kind: z.enum(['procedimiento', 'evento', 'diplomado']),
  file: z.string().regex(/^[0-9a-f-]{36}\.jpg$/i),
});

/** /sitemap.xml, /robots.txt and the link-preview pictures under /og/ (outside /api and /media, which robots.txt keeps out). */
export function registerSeoRoutes(app: FastifyInstance, deps: { seo: SeoService }) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get('/sitemap.xml', async (_request, reply) =>
    reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(await deps.seo.sitemap()),
  );
  routes.get('/robots.txt', async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(deps.seo.robots()),
  );
  routes.get('/og/sitio.jpg', async (_request, reply) =>
    reply
      .type('image/jpeg')
      .header('cache-control', 'public, max-age=86400')
      .send(await deps.seo.defaultPicture()),
  );
  routes.get('/og/:kind/:file', { schema: { params: previewParams } }, async (request, reply) => {
    const id = request.params.file.slice(0, -'.jpg'.length).toLowerCase();
    if (!uuidPattern.test(id)) throw new AppError('NOT_FOUND');
    const picture = await deps.seo.previewPicture(request.params.kind, id);
    if (!picture) throw new AppError('NOT_FOUND');
    return reply.type('image/jpeg').header('cache-control', 'public, max-age=3600').send(picture);
  });
}
