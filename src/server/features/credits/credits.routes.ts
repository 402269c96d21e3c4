import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requirePremium, requireUser } from '#server/plugins/authorization.ts';
import { memberDiplomaParamsSchema } from '#shared/diplomas/diplomas.schemas.ts';
import {
  creditParamsSchema,
  evaluationInputSchema,
  evaluationStateSchema,
  licenceInputSchema,
  myCreditsSchema,
  transcriptParamsSchema,
} from '#shared/credits/credits.schemas.ts';
import { sumHours } from '#shared/credits/credits.rules.ts';
import type { CreditsService } from './credits.service.ts';
import { creditsCsv } from './credits.text.ts';

function pdfReply(bytes: Uint8Array, fileName: string) {
  return {
    headers: {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="${fileName}"`,
    },
    body: Buffer.from(bytes),
  };
}

/** The course evaluation (enrolled Premium members) and 'Mis créditos' (any signed-in member: earned credit stays). */
export function registerCreditRoutes(app: FastifyInstance, deps: { credits: CreditsService; publicUrl: string }) {
  const { credits } = deps;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const noStore = { 'cache-control': 'no-store' };

  api.get(
    '/api/diplomas/:id/evaluation',
    { schema: { params: memberDiplomaParamsSchema, response: { 200: evaluationStateSchema } } },
    async (request, reply) => {
      reply.headers(noStore);
      return credits.evaluationState(await requirePremium(request), request.params.id);
    },
  );

  api.post(
    '/api/diplomas/:id/evaluation',
    {
      schema: {
        params: memberDiplomaParamsSchema,
        body: evaluationInputSchema,
        response: { 200: evaluationStateSchema },
      },
    },
    async (request) => credits.submitEvaluation(await requirePremium(request), request.params.id, request.body),
  );

  api.get('/api/credits', { schema: { response: { 200: myCreditsSchema } } }, async (request, reply) => {
    reply.headers(noStore);
    return credits.listForUser(await requireUser(request));
  });

  api.put(
    '/api/credits/licence',
    { schema: { body: licenceInputSchema, response: { 200: z.object({ ok: z.literal(true) }) } } },
    async (request) => {
      await credits.saveLicence(await requireUser(request), request.body);
      return { ok: true as const };
    },
  );

  api.get('/api/credits/creditos.csv', async (request, reply) => {
    const user = await requireUser(request);
    const { items } = await credits.listForUser(user);
    const csv = creditsCsv(
      { name: user.name, licenceNumber: user.licenceNumber },
      items.filter((item) => item.revokedAt === null),
      (date) => credits.localDate(date),
    );
    return reply
      .headers({
        ...noStore,
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': 'attachment; filename="creditos.csv"',
      })
      .send(csv);
  });

  api.get('/api/credits/transcript/:year', { schema: { params: transcriptParamsSchema } }, async (request, reply) => {
    const user = await requireUser(request);
    const { year } = request.params;
    const items = await credits.itemsOfYear(user, year);
    const { byYear } = await credits.listForUser(user);
    const ofYear = byYear.find((entry) => entry.year === year);
    // the PDF library loads with the first transcript, not at every start
    const { renderTranscriptPdf } = await import('./credits.pdf.ts');
    const bytes = await renderTranscriptPdf({
      year,
      holderName: user.name,
      licenceNumber: user.licenceNumber,
      items,
      byBody: ofYear?.byBody ?? [],
      totalHours: ofYear?.hours ?? sumHours([]),
      issuedOn: credits.localDate(new Date()),
      dayOf: (date) => credits.localDate(date),
      verificationUrlOf: (code) => new URL(`/certificados/${code}`, deps.publicUrl).toString(),
    });
    const file = pdfReply(bytes, `creditos-${year}.pdf`);
    return reply.headers({ ...noStore, ...file.headers }).send(file.body);
  });

  api.get(
    '/api/credits/:creditId/certificate.pdf',
    { schema: { params: creditParamsSchema } },
    async (request, reply) => {
      const { bytes, fileName } = await credits.certificatePdf(await requireUser(request), request.params.creditId);
      const file = pdfReply(bytes, fileName);
      return reply.headers({ ...noStore, ...file.headers }).send(file.body);
    },
  );
}
