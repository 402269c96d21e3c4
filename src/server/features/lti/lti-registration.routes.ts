import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { escapeHtml, page, sendPage } from './lti-pages.ts';
import { RegistrationRefused, type RegistrationRefusal } from './lti-registration.ts';
import type { Lti } from './lti.ts';

const refusalTexts: Record<RegistrationRefusal, string> = {
  'enlace-desconocido': 'Este enlace de registro no existe. Pide al administrador de CxVet un enlace nuevo.',
  'enlace-usado': 'Este enlace de registro ya se usó. Pide al administrador de CxVet un enlace nuevo.',
  'enlace-vencido': 'Este enlace de registro venció. Pide al administrador de CxVet un enlace nuevo.',
  'configuracion-invalida': 'La configuración que envió tu plataforma está incompleta o no es de LTI 1.3.',
  'configuracion-inaccesible': 'No pudimos leer la configuración de tu plataforma. Inténtalo de nuevo en unos minutos.',
  'emisor-distinto':
    'El emisor de la configuración de tu plataforma no corresponde a la dirección desde la que se envió.',
  'url-insegura': 'Las direcciones de tu plataforma deben usar https.',
  'registro-rechazado': 'Tu plataforma rechazó el registro de CxVet. Revisa el enlace o inténtalo de nuevo.',
  'registro-sin-cliente': 'Tu plataforma respondió al registro sin asignar un client id a CxVet.',
  'plataforma-repetida': 'Esta plataforma ya está registrada en CxVet con ese client id.',
};

/** The close message of LTI Dynamic Registration 1.0 (3.7), sent to the LMS that opened the page; a file of ours. */
const closeScript = `document.getElementById('lti-close')?.addEventListener('click', function () {
  (window.opener || window.parent).postMessage({ subject: 'org.imsglobal.lti.close' }, '*');
});
`;

const closeButton = `<button type="button" id="lti-close">Volver a la plataforma</button>
<script src="/api/lti/register-close.js"></script>`;

const querySchema = z.object({
  openid_configuration: z.string().min(1).max(2000),
  registration_token: z.string().min(1).max(8000).optional(),
});

/** The origin of the LMS that opens the page frames it: it is not a registered platform yet. */
const framers = new WeakMap<FastifyRequest, string>();
export const registrationFramer = (request: FastifyRequest) => framers.get(request);

function originOf(value: unknown): string | undefined {
  try {
    const parsed = new URL(String(value));
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/** LTI Dynamic Registration: the page the LMS opens in its frame with the one-time URL of an Admin. */
export function registerLtiRegistrationRoutes(app: FastifyInstance, lti: Lti): void {
  const routes = app.withTypeProvider<ZodTypeProvider>();

  routes.get('/api/lti/register-close.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=3600').send(closeScript),
  );

  routes.get(
    '/api/lti/register/:token',
    { schema: { params: z.object({ token: z.string().min(1).max(200) }) } },
    async (request, reply) => {
      const query = querySchema.safeParse(request.query);
      const origin = originOf((request.query as Record<string, unknown>).openid_configuration);
      if (origin) framers.set(request, origin);
      const refuse = (reason: RegistrationRefusal) =>
        sendPage(
          reply,
          'VALIDATION',
          page('No pudimos registrar CxVet', `<p>${escapeHtml(refusalTexts[reason])}</p>${closeButton}`),
        );
      if (!query.success || !lti.registration) return refuse('configuracion-invalida');
      try {
        const { platform, deploymentMissing } = await lti.registration.register({
          token: request.params.token,
          openidConfiguration: query.data.openid_configuration,
          registrationToken: query.data.registration_token,
        });
        const note = deploymentMissing
          ? '<p>Tu plataforma no envió un deployment id: agrégalo en CxVet, en Plataformas LTI, antes del primer lanzamiento.</p>'
          : '';
        return sendPage(
          reply,
          null,
          page(
            'CxVet quedó registrado',
            `<p>CxVet quedó registrado en ${escapeHtml(platform.name)}. Ya puedes agregarlo a tus cursos.</p>${note}${closeButton}`,
          ),
        );
      } catch (error) {
        if (error instanceof RegistrationRefused) return refuse(error.reason);
        throw error;
      }
    },
  );
}
