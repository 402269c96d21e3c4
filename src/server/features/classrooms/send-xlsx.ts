import type { FastifyReply } from 'fastify';

/** A spreadsheet download that no shared cache keeps. */
export function sendXlsx(reply: FastifyReply, file: { fileName: string; data: Buffer }) {
  return reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('cache-control', 'private, no-store')
    .send(file.data);
}
