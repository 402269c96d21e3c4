import { randomUUID } from 'node:crypto';
import { inArray } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import {
  events,
  landingSlides,
  organizations,
  publicUniversities,
  siteSettings,
  users,
} from '#server/db/schema/index.ts';
import { asset } from './demo-procedures.ts';
import { dayMs, eventDay, req, type DemoPeople, type DemoPlan } from './demo-plan.ts';

const universityNames = [
  'Universidad Nacional Autónoma de México',
  'Universidad Autónoma Metropolitana',
  'Universidad de Guadalajara',
  'Universidad Autónoma de Nuevo León',
  'Benemérita Universidad Autónoma de Puebla',
  'Universidad Autónoma del Estado de México',
  'Universidad Nacional de Colombia',
  'Universidad de Buenos Aires',
];

const spanishDate = new Intl.DateTimeFormat('es-MX', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'America/Mexico_City',
});

/** The public site around the catalogue: events, the landing carousel, organizations and universities. */
export function planSiteDemo({ now, ts, store }: DemoPlan) {
  // Events: three upcoming, one past and inactive
  const congressDate = eventDay(now, 45);
  const webinarDate = eventDay(now, 20);
  const workshopDate = eventDay(now, 75);
  const pastDate = eventDay(now, -30);
  const eventRows = [
    {
      name: 'Congreso Internacional de Cirugía Veterinaria',
      displayDate: spanishDate.format(congressDate),
      sortDate: congressDate,
      type: 'Congreso',
      detailHtml:
        '<p>Tres días de conferencias magistrales, casos clínicos y mesas redondas con cirujanos de México y Latinoamérica.</p>' +
        '<ul><li>Ortopedia y neurocirugía</li><li>Cirugía de tejidos blandos</li><li>Anestesia y manejo del dolor</li></ul>' +
        '<p><strong>Miembros Premium:</strong> 20&nbsp;% de descuento en la inscripción.</p>',
      status: 'Activo' as const,
      image: store(`events/${ts}_congreso.jpg`, req(asset.previews[0], 'preview')),
      pdf: store(`events/${ts}_congreso-informacion.pdf`, asset.pdf),
      programPdf: store(`events/${ts}_congreso-programa.pdf`, asset.pdf),
      promoVideoId: 'aqz-KE-bpKQ',
      // three days from 10:00 to 18:00 in Mexico City
      startsAt: congressDate,
      endsAt: new Date(congressDate.getTime() + 2 * dayMs + 8 * 3_600_000),
      place: 'World Trade Center, Ciudad de México',
    },
    {
      name: 'Webinar: Analgesia perioperatoria en pequeñas especies',
      displayDate: spanishDate.format(webinarDate),
      sortDate: webinarDate,
      type: 'Webinar',
      detailHtml:
        '<p>Sesión en línea sobre protocolos de analgesia multimodal antes, durante y después de la cirugía.</p>' +
        '<p><strong>Duración:</strong> 90 minutos, con sesión de preguntas al final.</p>',
      status: 'Activo' as const,
      image: store(`events/${ts}_webinar-analgesia.jpg`, req(asset.previews[1], 'preview')),
      pdf: store(`events/${ts}_webinar-analgesia.pdf`, asset.pdf),
      programPdf: null,
      promoVideoId: null,
      startsAt: webinarDate,
      endsAt: new Date(webinarDate.getTime() + 90 * 60_000),
      place: 'En línea',
    },
    {
      name: 'Taller práctico de osteosíntesis',
      displayDate: spanishDate.format(workshopDate),
      sortDate: workshopDate,
      type: 'Taller',
      detailHtml:
        '<p>Taller presencial con modelos óseos para practicar la colocación de placas y tornillos.</p>' +
        '<ul><li>Principios AO de fijación interna</li><li>Placas de compresión dinámica</li><li>Fijadores externos</li></ul>' +
        '<p><strong>Cupo limitado</strong> a 24 participantes.</p>',
      status: 'Activo' as const,
      image: store(`events/${ts}_taller-osteosintesis.jpg`, req(asset.previews[2], 'preview')),
      pdf: null,
      programPdf: store(`events/${ts}_taller-osteosintesis-programa.pdf`, asset.pdf),
      promoVideoId: null,
    },
    {
      name: 'Taller de suturas y nudos quirúrgicos',
      displayDate: spanishDate.format(pastDate),
      sortDate: pastDate,
      type: 'Taller',
      detailHtml: '<p>Práctica de patrones de sutura, nudos manuales e instrumentales sobre modelos sintéticos.</p>',
      status: 'Inactivo' as const,
      image: store(`events/${ts}_taller-suturas.jpg`, req(asset.previews[0], 'preview')),
      pdf: null,
      programPdf: null,
      promoVideoId: null,
    },
  ];

  // Landing carousel
  const slideRows = [
    {
      media: store(`landing_page/${ts}_hero.jpg`, asset.hero),
      isVideo: false,
      title: 'Aprende cirugía veterinaria con expertos',
      subtitle: 'Videos de procedimientos, guías en PDF y diplomados en español',
      textColor: 'Blanco' as const,
      position: 1,
    },
    {
      media: store(`landing_page/${ts}_hero-claro.jpg`, asset.heroLight),
      isVideo: false,
      title: 'Hazte Premium',
      subtitle: 'Todo el catálogo de cirugías y sus guías descargables',
      textColor: 'Negro' as const,
      position: 2,
    },
    {
      media: store(`landing_page/${ts}_video.mp4`, asset.video),
      isVideo: true,
      title: '',
      subtitle: '',
      textColor: 'Blanco' as const,
      position: 3,
    },
  ];

  // Organizations
  const companyId = randomUUID();
  const universityId = randomUUID();
  const privateUniversityId = randomUUID();
  const organizationRows = [
    {
      id: companyId,
      title: 'VetSalud Farma',
      type: 'Empresa' as const,
      isPrivate: false,
      logoImage: store(`organizations/${companyId}/${ts}_logo.png`, asset.logo),
      promoImage: store(`organizations/${companyId}/${ts}_promo.jpg`, req(asset.previews[1], 'preview')),
      promoLink: 'https://www.example.com/vetsalud/promociones',
    },
    {
      id: universityId,
      title: 'Universidad Veterinaria del Centro',
      type: 'Universidad' as const,
      isPrivate: false,
      logoImage: store(`organizations/${universityId}/${ts}_logo.png`, asset.logo),
      promoImage: null,
      promoLink: null,
    },
    {
      id: privateUniversityId,
      title: 'Instituto Privado de Cirugía Veterinaria',
      type: 'Universidad' as const,
      isPrivate: true,
      logoImage: store(`organizations/${privateUniversityId}/${ts}_logo.png`, asset.logo),
      promoImage: null,
      promoLink: null,
    },
  ];

  return {
    companyId,
    universityId,
    insert: async (tx: Db, { basic, classroomAdmin }: DemoPeople) => {
      await tx.insert(events).values(eventRows);
      await tx.insert(landingSlides).values(slideRows);
      await tx
        .insert(siteSettings)
        .values({ id: 1, slideSeconds: 6 })
        .onConflictDoUpdate({ target: siteSettings.id, set: { slideSeconds: 6, updatedAt: now } });
      await tx.insert(organizations).values(organizationRows);
      await tx
        .insert(publicUniversities)
        .values(universityNames.map((name) => ({ name })))
        .onConflictDoNothing();
      // the aula's students and its administrator belong to its university
      await tx
        .update(users)
        .set({ organizationId: universityId })
        .where(inArray(users.id, [basic.id, classroomAdmin.id]));
    },
  };
}
