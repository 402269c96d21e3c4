import { createHmac, randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

type ErrorReply = (reply: FastifyReply, status: number, name: string, issue?: string, field?: string) => unknown;

/**
 * PayPal's webhooks in the fake: events signed over the CRC32 of the exact bytes sent, and
 * verify-webhook-signature, which checks the webhook_event bytes it is given against them.
 */
export function paypalFakeWebhooks(options: { webhookId: string; error: ErrorReply }) {
  const signingKey = randomUUID();
  const { error } = options;
  const now = () => new Date().toISOString();

  function signature(transmissionId: string, time: string, webhookId: string, rawBody: string) {
    return createHmac('sha256', signingKey)
      .update(`${transmissionId}|${time}|${webhookId}|${crc32(Buffer.from(rawBody, 'utf8'))}`)
      .digest('base64');
  }

  /** A webhook as PayPal sends it: these exact bytes, signed over their CRC32. */
  function webhook(
    eventType: string,
    resource: Record<string, unknown>,
    rawOverride?: (raw: string) => string,
    extra: { resourceType?: string; transmissionTime?: string } = {},
  ) {
    const id = `WH-${randomUUID()}`;
    const json = JSON.stringify({
      id,
      event_version: '1.0',
      create_time: now(),
      resource_type: extra.resourceType ?? eventType.split('.')[1]?.toLowerCase(),
      event_type: eventType,
      summary: 'Suscripción',
      resource,
    });
    const rawBody = rawOverride ? rawOverride(json) : json;
    return signed(rawBody, extra.transmissionTime);
  }

  /** PayPal's transmission headers over these bytes: a redelivery is the same bytes with a new transmission. */
  function signed(rawBody: string, time = now()) {
    const transmissionId = randomUUID();
    return {
      id: (JSON.parse(rawBody) as { id: string }).id,
      rawBody,
      headers: {
        'content-type': 'application/json',
        'paypal-auth-algo': 'SHA256withRSA',
        'paypal-cert-url': 'https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77',
        'paypal-transmission-id': transmissionId,
        'paypal-transmission-sig': signature(transmissionId, time, options.webhookId, rawBody),
        'paypal-transmission-time': time,
      },
    };
  }

  /** The handler of POST /v1/notifications/verify-webhook-signature. */
  async function verify(request: FastifyRequest, reply: FastifyReply) {
    const body = request.body as Record<string, unknown>;
    for (const field of [
      'auth_algo',
      'cert_url',
      'transmission_id',
      'transmission_sig',
      'transmission_time',
      'webhook_id',
      'webhook_event',
    ]) {
      if (body[field] === undefined)
        return error(reply, 400, 'INVALID_REQUEST', 'MISSING_REQUIRED_PARAMETER', `/${field}`);
    }
    const eventBytes = rawValue((request as FastifyRequest & { raw_: string }).raw_, 'webhook_event');
    const expected = signature(
      String(body.transmission_id),
      String(body.transmission_time),
      String(body.webhook_id),
      eventBytes ?? '',
    );
    return {
      verification_status:
        body.transmission_sig === expected && body.webhook_id === options.webhookId ? 'SUCCESS' : 'FAILURE',
    };
  }

  return { webhook, verify };
}

/** The exact text of one top-level member's value in a JSON document (strings and nesting respected). */
function rawValue(json: string, key: string): string | null {
  const marker = `"${key}":`;
  let at = json.indexOf(marker);
  if (at < 0) return null;
  at += marker.length;
  while (/\s/.test(json[at] ?? '')) at++;
  const startAt = at;
  let depth = 0;
  let inString = false;
  for (; at < json.length; at++) {
    const char = json[at];
    if (inString) {
      if (char === '\\') at++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      depth--;
      if (depth === 0) return json.slice(startAt, at + 1);
    }
  }
  return null;
}
