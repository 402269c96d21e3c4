import { createReadStream } from 'node:fs';
import { foldForSearch } from '#shared/text.ts';
import { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { inArray } from 'drizzle-orm';
import type { Database, Db } from '#server/db/client.ts';
import {
  classroomProcedures,
  classroomUsers,
  classrooms,
  diplomaUsers,
  diplomaVideoChapters,
  diplomaVideoFiles,
  diplomaVideos,
  diplomas,
  events,
  examAnswers,
  examQuestions,
  examResults,
  exams,
  landingSlides,
  organizations,
  paymentSubscriptions,
  simulatedProviderRecords,
  payments,
  procedureCaptions,
  procedureChapters,
  procedureTags,
  procedures,
  publicUniversities,
  siteSettings,
  tags,
  users,
} from '#server/db/schema/index.ts';
import type { FileStorage } from '#server/services/storage.ts';
import { paidSimulatedSubscription } from '#server/services/payments/simulated-provider.ts';
import type { AccountsService, UserRow } from '#server/features/accounts/accounts.service.ts';
import type { ProcedureType, Species } from '#shared/catalog/catalog.rules.ts';
import { planPriceCents } from '#shared/payments/payments.rules.ts';
import { demoAccounts, demoPassword, type DemoRole } from './demo-accounts.ts';

const assetsDir = fileURLToPath(new URL('../../../../assets/demo/', import.meta.url));
const dayMs = 86_400_000;

/** Sample files in assets/demo (see scripts/make-demo-media.sh). */
const asset = {
  previews: ['preview-azul.jpg', 'preview-verde.jpg', 'preview-vino.jpg'],
  hero: 'hero.jpg',
  heroLight: 'hero-claro.jpg',
  logo: 'logo.png',
  certificate: 'certificado.jpg',
  video: 'video.mp4',
  fullVideo: 'video-completo.mp4',
  videoWebm: 'video.webm',
  pdf: 'guia.pdf',
} as const;

const tagNames = [
  'Ortopedia',
  'Tejidos blandos',
  'Oftalmología',
  'Abdomen',
  'Tórax',
  'Urgencias',
  'Reproducción',
  'Oncología',
] as const;
type TagName = (typeof tagNames)[number];

type DemoProcedure = {
  name: string;
  species: Species;
  type: ProcedureType;
  tags: TagName[];
  meta: string;
  detail: string[];
  // [name, seconds]; the sample video lasts 30 s
  chapters: [string, number][];
};

/** Each procedure's own title card in assets/demo/procedures (scripts/make-demo-media.sh). */
export const procedureCardFile = (name: string) =>
  `procedures/${foldForSearch(name)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')}.jpg`;

export const demoProcedures: DemoProcedure[] = [
  {
    name: 'Ovariohisterectomía en perra',
    species: 'Perro',
    type: 'Gratis',
    tags: ['Tejidos blandos', 'Reproducción', 'Abdomen'],
    meta: 'OVH, esterilización, castración de hembra, histerectomía, ovariectomía',
    detail: [
      'La ovariohisterectomía es la esterilización quirúrgica más realizada en la clínica de pequeñas especies.',
      'Se muestra el abordaje por línea media ventral, la localización de los ovarios con el gancho de castración y la ligadura segura de los pedículos ováricos y del cuerpo uterino.',
      'El video incluye recomendaciones para prevenir hemorragias y el síndrome de ovario remanente.',
    ],
    chapters: [
      ['Preparación y posicionamiento', 0],
      ['Abordaje por línea media', 5],
      ['Ligadura de pedículos ováricos', 12],
      ['Ligadura del cuerpo uterino', 19],
      ['Cierre por planos', 25],
    ],
  },
  {
    name: 'Orquiectomía en gato',
    species: 'Gato',
    type: 'Gratis',
    tags: ['Reproducción', 'Tejidos blandos'],
    meta: 'castración, orquiectomía felina, esterilización de macho, gato macho',
    detail: [
      'Técnica de castración del gato macho por abordaje escrotal.',
      'Se describe la ligadura autostática del cordón espermático anudando el conducto deferente con el plexo pampiniforme.',
      'Es un procedimiento breve, ideal para iniciar la práctica quirúrgica.',
    ],
    chapters: [
      ['Preparación del campo', 0],
      ['Incisión escrotal', 6],
      ['Ligadura autostática', 14],
      ['Revisión de hemostasia', 23],
    ],
  },
  {
    name: 'Reparación de ligamento cruzado craneal',
    species: 'Perro',
    type: 'Premium',
    tags: ['Ortopedia'],
    meta: 'LCC, rotura de ligamento cruzado, sutura fabelotibial, rodilla, estabilización extracapsular, menisco',
    detail: [
      'La rotura del ligamento cruzado craneal es la causa más frecuente de cojera del miembro pélvico en el perro.',
      'Este procedimiento muestra la artrotomía exploratoria, la revisión de los meniscos y la colocación de una sutura fabelotibial lateral.',
      'Se comentan los criterios para elegir entre la estabilización extracapsular y las osteotomías niveladoras.',
    ],
    chapters: [
      ['Evaluación de la inestabilidad', 0],
      ['Artrotomía y revisión de meniscos', 7],
      ['Anclaje fabelar y túnel tibial', 15],
      ['Tensado de la sutura', 21],
      ['Cierre', 26],
    ],
  },
  {
    name: 'Enucleación transpalpebral en gato',
    species: 'Gato',
    type: 'Premium',
    tags: ['Oftalmología'],
    meta: 'enucleación, extirpación del ojo, órbita, globo ocular, oftalmología felina',
    detail: [
      'La enucleación está indicada en ojos ciegos y dolorosos, neoplasias intraoculares o traumatismos irreparables.',
      'Se muestra la técnica transpalpebral, que reduce el riesgo de contaminación al mantener cerrados los párpados.',
      'Se insiste en evitar la tracción del nervio óptico, que en el gato puede dañar el quiasma y el ojo contralateral.',
    ],
    chapters: [
      ['Sutura de los párpados', 0],
      ['Disección subconjuntival', 8],
      ['Ligadura del pedículo óptico', 16],
      ['Cierre orbitario', 24],
    ],
  },
  {
    name: 'Cistotomía',
    species: 'Perro',
    type: 'Gratis',
    tags: ['Abdomen', 'Tejidos blandos'],
    meta: 'urolitos, cálculos vesicales, vejiga, urolitiasis, cistolitos',
    detail: [
      'Extracción de urolitos vesicales mediante cistotomía ventral.',
      'Se describen el aislamiento de la vejiga con compresas, el sondaje retrógrado para lavar la uretra y el cierre de la pared vesical.',
      'Se recomienda enviar los cálculos a análisis cuantitativo y confirmar su extracción completa con una radiografía postoperatoria.',
    ],
    chapters: [
      ['Abordaje abdominal caudal', 0],
      ['Aislamiento de la vejiga', 6],
      ['Extracción de urolitos', 12],
      ['Lavado uretral', 18],
      ['Cierre vesical', 24],
    ],
  },
  {
    name: 'Esplenectomía',
    species: 'Perro',
    type: 'Premium',
    tags: ['Abdomen', 'Oncología'],
    meta: 'bazo, hemangiosarcoma, hemoabdomen, torsión esplénica, masa esplénica',
    detail: [
      'Indicada en masas esplénicas, torsión del bazo o rotura con hemoabdomen.',
      'El video muestra la ligadura de los vasos hiliares y el uso de dispositivos de sellado vascular.',
      'Incluye la exploración sistemática del abdomen en busca de metástasis y el manejo de las arritmias postoperatorias.',
    ],
    chapters: [
      ['Exposición del bazo', 0],
      ['Ligadura de vasos hiliares', 8],
      ['Extracción y exploración abdominal', 17],
      ['Cierre', 25],
    ],
  },
  {
    name: 'Gastropexia incisional',
    species: 'Perro',
    type: 'Premium',
    tags: ['Abdomen', 'Urgencias'],
    meta: 'gastropexia, DVG, torsión gástrica, dilatación vólvulo gástrico, estómago',
    detail: [
      'La gastropexia fija el antro pilórico a la pared abdominal derecha para prevenir la recurrencia de la dilatación-vólvulo gástrico.',
      'Se muestra la técnica incisional después de la descompresión y el reposicionamiento del estómago.',
      'También se comenta su uso preventivo en razas grandes de tórax profundo.',
    ],
    chapters: [
      ['Reposicionamiento gástrico', 0],
      ['Incisión seromuscular en el antro', 8],
      ['Incisión en el músculo transverso', 15],
      ['Sutura de la pexia', 21],
    ],
  },
  {
    name: 'Mastectomía regional en gata',
    species: 'Gato',
    type: 'Premium',
    tags: ['Oncología', 'Tejidos blandos'],
    meta: 'mastectomía, tumor mamario, carcinoma mamario, cadena mamaria, oncología felina',
    detail: [
      'Los tumores mamarios de la gata son malignos en su mayoría y requieren una cirugía amplia.',
      'Se muestra la mastectomía de la cadena completa con extracción de los linfonodos inguinal y axilar.',
      'Se detallan la estadificación previa con radiografías de tórax y el cierre sin tensión.',
    ],
    chapters: [
      ['Planificación de márgenes', 0],
      ['Disección de la cadena mamaria', 7],
      ['Linfadenectomía', 15],
      ['Cierre sin tensión', 23],
    ],
  },
  {
    name: 'Amputación de miembro torácico',
    species: 'Perro',
    type: 'Premium',
    tags: ['Ortopedia', 'Oncología'],
    meta: 'amputación, osteosarcoma, escapulectomía, plexo braquial, miembro anterior',
    detail: [
      'La amputación con escapulectomía es el tratamiento de elección en tumores óseos y lesiones irreparables del miembro torácico.',
      'Se describen la desinserción muscular de la escápula, la ligadura de la arteria y la vena axilares y el bloqueo del plexo braquial.',
      'Se comentan la adaptación del paciente a la marcha en tres miembros y el control del dolor.',
    ],
    chapters: [
      ['Incisión cutánea', 0],
      ['Desinserción escapular', 6],
      ['Ligadura de vasos axilares', 14],
      ['Sección del plexo braquial', 20],
      ['Cierre', 26],
    ],
  },
  {
    name: 'Extracción de cuerpo extraño intestinal',
    species: 'Perro',
    type: 'Gratis',
    tags: ['Abdomen', 'Urgencias'],
    meta: 'enterotomía, obstrucción intestinal, cuerpo extraño lineal, intestino delgado',
    detail: [
      'La obstrucción intestinal por cuerpos extraños es una urgencia frecuente en perros jóvenes.',
      'Se muestran la exploración completa del tubo digestivo, la enterotomía en el borde antimesentérico y la valoración de la viabilidad intestinal.',
      'El cierre se realiza con un patrón simple interrumpido seguido de una prueba de fugas.',
    ],
    chapters: [
      ['Exploración abdominal', 0],
      ['Localización del cuerpo extraño', 6],
      ['Enterotomía', 12],
      ['Cierre y prueba de fugas', 20],
      ['Omentalización', 26],
    ],
  },
  {
    name: 'Castración en conejo',
    species: 'Otras especies',
    type: 'Gratis',
    tags: ['Reproducción'],
    meta: 'lagomorfos, conejo macho, orquiectomía, exóticos, castración',
    detail: [
      'La orquiectomía del conejo macho previene conductas territoriales y reduce la agresividad.',
      'Se muestran el abordaje prescrotal y el cierre del anillo inguinal, que en esta especie permanece abierto, para evitar hernias.',
      'Se comentan los cuidados anestésicos propios de los lagomorfos.',
    ],
    chapters: [
      ['Anestesia y posicionamiento', 0],
      ['Abordaje prescrotal', 7],
      ['Ligadura del cordón espermático', 14],
      ['Cierre del anillo inguinal', 22],
    ],
  },
  {
    name: 'Cesárea en perra',
    species: 'Perro',
    type: 'Premium',
    tags: ['Reproducción', 'Urgencias'],
    meta: 'cesárea, distocia, parto, histerotomía, cachorros, reanimación neonatal, obstetricia',
    detail: [
      'La cesárea está indicada ante distocias que no responden al tratamiento médico.',
      'Se muestran la histerotomía en el cuerpo uterino, la extracción ordenada de los cachorros y la reanimación neonatal.',
      'Se comparan los protocolos anestésicos que mejor preservan la vitalidad de los neonatos.',
    ],
    chapters: [
      ['Exteriorización del útero', 0],
      ['Histerotomía', 7],
      ['Extracción de los cachorros', 13],
      ['Reanimación neonatal', 19],
      ['Cierre uterino', 25],
    ],
  },
  {
    name: 'Toracostomía con sonda en gato',
    species: 'Gato',
    type: 'Premium',
    tags: ['Tórax', 'Urgencias'],
    meta: 'tubo torácico, drenaje torácico, neumotórax, efusión pleural, piotórax',
    detail: [
      'La colocación de una sonda torácica permite drenar neumotórax y derrames pleurales recurrentes.',
      'Se muestran la tunelización subcutánea y la entrada al tórax con la técnica de pinza hemostática.',
      'Se revisan la fijación con sutura en trampa china y el manejo del sistema de drenaje.',
    ],
    chapters: [
      ['Localización del espacio intercostal', 0],
      ['Tunelización subcutánea', 7],
      ['Entrada a la cavidad torácica', 14],
      ['Fijación en trampa china', 22],
    ],
  },
  {
    name: 'Ingluviotomía en ave',
    species: 'Otras especies',
    type: 'Premium',
    tags: ['Tejidos blandos', 'Urgencias'],
    meta: 'buche, aves, cuerpo extraño en el buche, impactación, exóticos, psitácidos',
    detail: [
      'La ingluviotomía permite extraer cuerpos extraños o alimento impactado del buche.',
      'Se muestran la anestesia inhalatoria con isoflurano, la incisión de la pared del buche alejada de la herida cutánea y el cierre en dos capas.',
      'Se dan recomendaciones de alimentación para el postoperatorio.',
    ],
    chapters: [
      ['Intubación y posicionamiento', 0],
      ['Incisión cutánea', 6],
      ['Apertura del buche', 13],
      ['Cierre en dos capas', 21],
    ],
  },
  {
    name: 'Corrección de entropión en perro',
    species: 'Perro',
    type: 'Gratis',
    tags: ['Oftalmología'],
    meta: 'entropión, párpado, Hotz-Celsus, blefaroplastia, úlcera corneal',
    detail: [
      'El entropión causa irritación corneal crónica por el roce de las pestañas y el pelo con la córnea.',
      'Se muestra la técnica de Hotz-Celsus con resección de piel en media luna.',
      'Se explica cómo calcular la cantidad de piel a retirar para evitar un ectropión iatrogénico.',
    ],
    chapters: [
      ['Medición del defecto', 0],
      ['Incisión en media luna', 7],
      ['Resección de piel', 14],
      ['Sutura', 21],
    ],
  },
];

// Procedures of the demo aulas and the diploma (by name, above).
const classroomProcedureNames = ['Esplenectomía', 'Gastropexia incisional', 'Mastectomía regional en gata'];
const openClassroomProcedureNames = ['Amputación de miembro torácico', 'Cistotomía'];
const expiringClassroomProcedureNames = ['Toracostomía con sonda en gato'];
const diplomaLinkedProcedureName = 'Extracción de cuerpo extraño intestinal';

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

/** 10:00 in Mexico City, `days` from now. */
function eventDay(now: Date, days: number): Date {
  const date = new Date(now.getTime() + days * dayMs);
  date.setUTCHours(16, 0, 0, 0);
  return date;
}

function req<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`demo seed: missing ${what}`);
  return value;
}

const demoCaptionLines = {
  es: [
    'Colocamos al paciente en decúbito dorsal.',
    'Preparamos el campo quirúrgico de forma aséptica.',
    'Incidimos la piel sobre la línea media.',
    'Identificamos las estructuras antes de continuar.',
    'Cerramos por planos con sutura absorbible.',
  ],
  en: [
    'We place the patient in dorsal recumbency.',
    'We prepare the surgical field aseptically.',
    'We incise the skin along the midline.',
    'We identify the structures before going on.',
    'We close in layers with absorbable suture.',
  ],
} as const;

const vttTime = (seconds: number) =>
  `00:${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}.000`;

/** A valid WebVTT file spreading these lines over a video of this many seconds. */
function demoCaptionsVtt(lines: readonly string[], seconds: number): string {
  const step = Math.floor(seconds / lines.length);
  const cues = lines.map(
    (line, index) => `${index + 1}\n${vttTime(index * step)} --> ${vttTime((index + 1) * step - 1)}\n${line}`,
  );
  return `WEBVTT\n\n${cues.join('\n\n')}\n`;
}

// any fixed number, the same in every instance (the migrations use 731_017_001)
const demoSeedLockKey = 731_017_002;

/**
 * Fills an empty database with Spanish demo content and the demo accounts; false when it holds any procedure or
 * user. Instances starting together on one PostgreSQL take turns, so the demo is made exactly once.
 */
export async function seedDemo(deps: {
  database: Pick<Database, 'db' | 'exclusively'>;
  storage: FileStorage;
  accounts: AccountsService;
  queueLadders?: (keys: string[]) => Promise<void>;
}): Promise<boolean> {
  return deps.database.exclusively(demoSeedLockKey, () => seedEmptyDatabase({ ...deps, db: deps.database.db }));
}

async function seedEmptyDatabase(deps: {
  db: Db;
  storage: FileStorage;
  accounts: AccountsService;
  /** Queues HLS ladders (made later by the job runner, never during the start). */
  queueLadders?: (keys: string[]) => Promise<void>;
}): Promise<boolean> {
  const { db, storage, accounts } = deps;
  const [anyProcedure] = await db.select({ id: procedures.id }).from(procedures).limit(1);
  const [anyUser] = await db.select({ id: users.id }).from(users).limit(1);
  if (anyProcedure || anyUser) return false;

  const now = new Date();
  const ts = now.getTime();
  const files = new Map<string, string>(); // storage key -> asset file
  const store = (key: string, file: string) => {
    files.set(key, file);
    return key;
  };

  // Catalogue
  const tagRows = tagNames.map((name) => ({ id: randomUUID(), name }));
  const tagId = (name: TagName) =>
    req(
      tagRows.find((tag) => tag.name === name),
      `tag ${name}`,
    ).id;
  const procedureRows = demoProcedures.map((procedure, index) => {
    const id = randomUUID();
    const folder = `procedures/${id}`;
    return {
      id,
      name: procedure.name,
      detail: procedure.detail.join('\n'),
      type: procedure.type,
      species: procedure.species,
      meta: procedure.meta,
      previewImage: store(`${folder}/${ts}_preview.jpg`, procedureCardFile(procedure.name)),
      // the full video differs visibly from the demo, so an evaluator sees what members get
      demoVideo: store(`${folder}/${ts}_demo.mp4`, asset.video),
      fullVideo: store(`${folder}/${ts}_video.mp4`, asset.fullVideo),
      guidePdf: store(`${folder}/${ts}_guia.pdf`, asset.pdf),
      // the first in the list is the newest
      createdAt: new Date(ts - (index + 1) * dayMs),
      updatedAt: now,
    };
  });
  const procedureId = (name: string) =>
    req(
      procedureRows.find((row) => row.name === name),
      `procedure ${name}`,
    ).id;
  // the two newest procedures carry Spanish subtitles on both videos, the newest English ones on its full video too
  const captionFiles = new Map<string, string>(); // storage key -> WebVTT text
  const captionRows = procedureRows.slice(0, 2).flatMap((row, index) => {
    const folder = `procedures/${row.id}`;
    const entries = [
      { video: 'demo' as const, language: 'es' as const, seconds: 30 },
      { video: 'full' as const, language: 'es' as const, seconds: 45 },
      ...(index === 0 ? [{ video: 'full' as const, language: 'en' as const, seconds: 45 }] : []),
    ];
    return entries.map((entry) => {
      const fileKey = `${folder}/${ts}_subtitulos-${entry.video}-${entry.language}.vtt`;
      captionFiles.set(fileKey, demoCaptionsVtt(demoCaptionLines[entry.language], entry.seconds));
      return { procedureId: row.id, video: entry.video, language: entry.language, fileKey };
    });
  });
  const chapterRows = demoProcedures.flatMap((procedure, index) =>
    procedure.chapters.map(([name, timeSeconds], position) => ({
      procedureId: req(procedureRows[index], 'procedure').id,
      position,
      name,
      timeSeconds,
    })),
  );
  const procedureTagRows = demoProcedures.flatMap((procedure, index) =>
    procedure.tags.map((tag) => ({ procedureId: req(procedureRows[index], 'procedure').id, tagId: tagId(tag) })),
  );

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

  // Aula
  const classroomId = randomUUID();
  const classroomPreviewImage = store(`aulas/${classroomId}/${ts}_preview.jpg`, req(asset.previews[2], 'preview'));
  const classroomPreviewPdf = store(`aulas/${classroomId}/${ts}_informacion.pdf`, asset.pdf);
  const openClassroomId = randomUUID();
  const openClassroomFiles = {
    previewImage: store(`aulas/${openClassroomId}/${ts}_preview.jpg`, req(asset.previews[1], 'preview')),
    previewPdf: store(`aulas/${openClassroomId}/${ts}_informacion.pdf`, asset.pdf),
  };
  const expiringClassroomId = randomUUID();
  const expiringClassroomFiles = {
    previewImage: store(`aulas/${expiringClassroomId}/${ts}_preview.jpg`, req(asset.previews[0], 'preview')),
    previewPdf: store(`aulas/${expiringClassroomId}/${ts}_informacion.pdf`, asset.pdf),
  };

  // Diploma: a linked catalogue procedure, then a video of its own; an exam after each
  const diplomaId = randomUUID();
  const ownVideoId = randomUUID();
  const ownVideoFolder = `diplomados/${diplomaId}/video1`;
  const diplomaFiles = {
    previewImage: store(`diplomados/${diplomaId}/Preview-Image/${ts}_portada.jpg`, req(asset.previews[0], 'preview')),
    previewPdf: store(`diplomados/${diplomaId}/Preview-pdf/${ts}_temario.pdf`, asset.pdf),
    certificateImage: store(`diplomados/${diplomaId}/Certificate/${ts}_certificado.jpg`, asset.certificate),
    ownVideo: store(`${ownVideoFolder}/${ts}_principios-sutura.webm`, asset.videoWebm),
    ownVideoPdf: store(`${ownVideoFolder}/${ts}_patrones-de-sutura.pdf`, asset.pdf),
    ownVideoImage: store(`${ownVideoFolder}/${ts}_esquema-anastomosis.jpg`, req(asset.previews[1], 'preview')),
  };
  const secondOwnVideoId = randomUUID();
  const secondOwnVideo = store(`diplomados/${diplomaId}/video2/${ts}_cierre-abdominal.mp4`, asset.video);
  const examOneId = randomUUID();
  const examTwoId = randomUUID();
  // an External diploma on sale (premium is not in it) and a hidden test diploma
  const externalDiplomaId = randomUUID();
  const externalFiles = {
    previewImage: store(
      `diplomados/${externalDiplomaId}/Preview-Image/${ts}_portada.jpg`,
      req(asset.previews[2], 'preview'),
    ),
    previewPdf: store(`diplomados/${externalDiplomaId}/Preview-pdf/${ts}_temario.pdf`, asset.pdf),
    video: store(`diplomados/${externalDiplomaId}/video1/${ts}_anestesia.mp4`, asset.video),
  };
  const testDiplomaId = randomUUID();
  const questionRows = [
    {
      examId: examOneId,
      question: '¿Cuál es el abordaje habitual para extraer un cuerpo extraño del intestino delgado?',
      answers: [
        'Toracotomía lateral derecha',
        'Laparotomía por línea media ventral',
        'Abordaje paracostal izquierdo',
        'Abordaje inguinal',
      ],
      correctAnswer: 1,
    },
    {
      examId: examOneId,
      question: '¿Dónde se realiza la incisión de la enterotomía?',
      answers: [
        'En el borde antimesentérico, en tejido sano distal al cuerpo extraño',
        'En el borde mesentérico, junto a los vasos',
        'Directamente sobre el tejido más dañado',
      ],
      correctAnswer: 0,
    },
    {
      examId: examOneId,
      question: '¿Qué hallazgo indica que un segmento intestinal no es viable?',
      answers: [
        'Serosa rosada y brillante',
        'Peristaltismo presente al estímulo',
        'Pared delgada, color gris o negro y ausencia de pulso arterial',
        'Vasos mesentéricos pulsátiles',
      ],
      correctAnswer: 2,
    },
    {
      examId: examTwoId,
      question: '¿Qué material de sutura se prefiere para cerrar el intestino?',
      answers: ['Seda trenzada', 'Monofilamento absorbible', 'Nylon multifilamento', 'Acero quirúrgico'],
      correctAnswer: 1,
    },
    {
      examId: examTwoId,
      question: '¿Qué patrón de sutura es adecuado para cerrar una enterotomía?',
      answers: ['Simple interrumpido aposicional', 'Sutura en bolsa de tabaco', 'Colchonero vertical evertido'],
      correctAnswer: 0,
    },
    {
      examId: examTwoId,
      question: '¿Cómo se comprueba la hermeticidad del cierre intestinal?',
      answers: [
        'No es necesaria ninguna comprobación',
        'Insuflando aire en la cavidad abdominal',
        'Con tinción de Gram del contenido intestinal',
        'Distendiendo el segmento con solución salina estéril y presionando suavemente',
      ],
      correctAnswer: 3,
    },
  ].map((row, index) => ({ ...row, id: randomUUID(), position: index % 3 }));

  // Files first: if copying fails nothing has been written to the database yet
  for (const [key, file] of files) await storage.put(key, createReadStream(assetsDir + file));
  for (const [key, text] of captionFiles) await storage.put(key, Readable.from([Buffer.from(text, 'utf8')]));

  const created = new Map<DemoRole, UserRow>();
  try {
    for (const account of demoAccounts) {
      const row = await accounts.createAccount({
        name: account.name,
        email: account.email,
        password: demoPassword,
        values: account.values(now),
      });
      created.set(account.role, row);
    }
    const basic = req(created.get('basic'), 'basic account');
    const premium = req(created.get('premium'), 'premium account');
    const classroomAdmin = req(created.get('classroomAdmin'), 'aula administrator account');
    const diplomaAdmin = req(created.get('diplomaAdmin'), 'diploma administrator account');

    await db.transaction(async (tx) => {
      await tx.insert(tags).values(tagRows);
      await tx.insert(procedures).values(procedureRows);
      await tx.insert(procedureChapters).values(chapterRows);
      await tx.insert(procedureCaptions).values(captionRows);
      await tx.insert(procedureTags).values(procedureTagRows);
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

      await tx.insert(classrooms).values({
        id: classroomId,
        title: 'Aula de Cirugía de Tejidos Blandos',
        description:
          'Aula virtual de la Universidad Veterinaria del Centro con procedimientos seleccionados de cirugía abdominal y oncológica para el semestre en curso.',
        accessType: 'Acceso controlado',
        organizationType: 'Universidad',
        organizationId: universityId,
        isActive: true,
        adminUserId: classroomAdmin.id,
        previewImage: classroomPreviewImage,
        previewPdf: classroomPreviewPdf,
        expiresAt: new Date(ts + 60 * dayMs),
      });
      await tx.insert(classroomUsers).values([{ classroomId, userId: basic.id }]);
      await tx
        .insert(classroomProcedures)
        .values(
          classroomProcedureNames.map((name, position) => ({ classroomId, procedureId: procedureId(name), position })),
        );
      // open to every signed-in account
      await tx.insert(classrooms).values({
        id: openClassroomId,
        title: 'Aula Abierta VetSalud',
        description: 'Aula de acceso libre patrocinada por VetSalud con procedimientos de ortopedia y urología.',
        accessType: 'Acceso libre',
        organizationType: 'Empresa',
        organizationId: companyId,
        isActive: true,
        adminUserId: null,
        ...openClassroomFiles,
        expiresAt: new Date(ts + 120 * dayMs),
      });
      await tx.insert(classroomProcedures).values(
        openClassroomProcedureNames.map((name, position) => ({
          classroomId: openClassroomId,
          procedureId: procedureId(name),
          position,
        })),
      );
      // expires in two days, so its member sees the expiry warning
      await tx.insert(classrooms).values({
        id: expiringClassroomId,
        title: 'Aula de Práctica Quirúrgica Intensiva',
        description: 'Curso intensivo de la Universidad Veterinaria del Centro que termina esta semana.',
        accessType: 'Acceso controlado',
        organizationType: 'Universidad',
        organizationId: universityId,
        isActive: true,
        adminUserId: null,
        ...expiringClassroomFiles,
        expiresAt: new Date(ts + 2 * dayMs),
      });
      await tx.insert(classroomUsers).values([{ classroomId: expiringClassroomId, userId: basic.id }]);
      await tx.insert(classroomProcedures).values(
        expiringClassroomProcedureNames.map((name, position) => ({
          classroomId: expiringClassroomId,
          procedureId: procedureId(name),
          position,
        })),
      );

      await tx.insert(diplomas).values({
        id: diplomaId,
        title: 'Diplomado en Cirugía Abdominal de Pequeñas Especies',
        descriptionHtml:
          '<p>Programa en línea para médicos veterinarios que desean consolidar sus bases en <strong>cirugía abdominal</strong>.</p>' +
          '<ul><li>Videos de procedimientos con secciones navegables</li><li>Material descargable en PDF</li><li>Exámenes de evaluación y constancia con folio</li></ul>' +
          '<p>Para obtener la constancia es necesario aprobar cada examen con al menos 80&nbsp;%.</p>',
        previewImage: diplomaFiles.previewImage,
        previewPdf: diplomaFiles.previewPdf,
        certificateImage: diplomaFiles.certificateImage,
        costCents: 4990,
        isExternal: false,
        organizationId: null,
        adminUserId: diplomaAdmin.id,
        isActive: true,
        isTest: false,
        passThresholdPercent: 80,
        createdAt: now,
      });
      await tx.insert(diplomaVideos).values([
        { diplomaId, position: 0, procedureId: procedureId(diplomaLinkedProcedureName), isActive: true },
        {
          id: ownVideoId,
          diplomaId,
          position: 1,
          title: 'Principios de sutura intestinal',
          description:
            'Selección del material de sutura, patrones aposicionales y técnica de anastomosis término-terminal.\nIncluye un resumen descargable de los patrones de sutura.',
          video: diplomaFiles.ownVideo,
          isActive: true,
        },
        {
          id: secondOwnVideoId,
          diplomaId,
          position: 2,
          title: 'Cierre de la pared abdominal',
          description: 'Cierre por planos de la línea alba, tejido subcutáneo y piel.',
          video: secondOwnVideo,
          isActive: true,
        },
      ]);
      await tx.insert(diplomaVideoChapters).values(
        [
          ['Materiales de sutura', 0],
          ['Patrón simple interrumpido', 8],
          ['Anastomosis término-terminal', 16],
          ['Prueba de fugas', 24],
        ].map(([name, timeSeconds], position) => ({
          videoId: ownVideoId,
          position,
          name: String(name),
          timeSeconds: Number(timeSeconds),
        })),
      );
      await tx.insert(diplomaVideoFiles).values([
        {
          videoId: ownVideoId,
          kind: 'pdf',
          title: 'Resumen de patrones de sutura',
          fileName: 'patrones-de-sutura.pdf',
          file: diplomaFiles.ownVideoPdf,
          position: 0,
        },
        {
          videoId: ownVideoId,
          kind: 'image',
          title: 'Esquema de anastomosis',
          fileName: 'esquema-anastomosis.jpg',
          file: diplomaFiles.ownVideoImage,
          position: 0,
        },
      ]);
      await tx.insert(exams).values([
        { id: examOneId, diplomaId, title: 'Examen 1: Enterotomía', afterVideoPosition: 0, isActive: true },
        { id: examTwoId, diplomaId, title: 'Examen 2: Sutura intestinal', afterVideoPosition: 1, isActive: true },
      ]);
      await tx.insert(examQuestions).values(questionRows);
      await tx.insert(diplomaUsers).values({ diplomaId, userId: premium.id, beganAt: new Date(ts - 3 * dayMs) });
      // premium has passed the first exam (every answer right)
      const examOneQuestions = questionRows.filter((row) => row.examId === examOneId);
      await tx.insert(examAnswers).values(
        examOneQuestions.map((row) => ({
          questionId: row.id,
          userId: premium.id,
          answer: row.correctAnswer,
          answeredAt: new Date(ts - 2 * dayMs),
        })),
      );
      await tx.insert(examResults).values({
        examId: examOneId,
        userId: premium.id,
        scorePercent: 100,
        correctCount: examOneQuestions.length,
        questionCount: examOneQuestions.length,
        passed: true,
        completedAt: new Date(ts - 2 * dayMs),
      });

      await tx.insert(diplomas).values([
        {
          id: externalDiplomaId,
          title: 'Diplomado en Anestesia y Analgesia Veterinaria',
          descriptionHtml:
            '<p>Programa de <strong>VetSalud Farma</strong> sobre protocolos de anestesia y analgesia en perros y gatos.</p>' +
            '<p>Cada clase se habilita al completar la anterior.</p>',
          previewImage: externalFiles.previewImage,
          previewPdf: externalFiles.previewPdf,
          costCents: 12900,
          isExternal: true,
          organizationId: companyId,
          isActive: true,
          isTest: false,
          createdAt: new Date(ts - dayMs),
        },
        {
          id: testDiplomaId,
          title: 'Diplomado de prueba (oculto)',
          descriptionHtml: '<p>Diplomado de prueba: no aparece en la lista de los miembros.</p>',
          costCents: 100,
          isExternal: false,
          isActive: true,
          isTest: true,
          createdAt: new Date(ts - 2 * dayMs),
        },
      ]);
      await tx.insert(diplomaVideos).values([
        {
          diplomaId: externalDiplomaId,
          position: 1,
          title: 'Evaluación preanestésica',
          description: 'Clasificación ASA, ayuno y premedicación.',
          video: externalFiles.video,
          isActive: true,
        },
        {
          diplomaId: externalDiplomaId,
          position: 2,
          procedureId: procedureId(diplomaLinkedProcedureName),
          isActive: true,
        },
      ]);

      // the premium demo's subscription, as the simulated provider would have left it
      const premiumPaidAt = req(premium.paymentDay ?? undefined, 'premium payment day');
      await tx.insert(paymentSubscriptions).values({
        userId: premium.id,
        provider: 'simulado',
        providerSubscriptionId: 'DEMO-SUB',
        plan: 'monthly',
        state: 'ACTIVA',
        createdAt: premiumPaidAt,
        updatedAt: premiumPaidAt,
      });
      // and the simulated provider's own record of it, so the demo member can downgrade and reactivate
      await tx
        .insert(simulatedProviderRecords)
        .values(
          paidSimulatedSubscription({
            id: 'DEMO-SUB',
            plan: 'monthly',
            customId: premium.id,
            paymentId: 'DEMO-SUB-PAGO-1',
            paidAt: premiumPaidAt,
          }),
        )
        .onConflictDoNothing();
      await tx.insert(payments).values({
        userId: premium.id,
        provider: 'simulado',
        providerPaymentId: 'DEMO-SUB-PAGO-1',
        kind: 'subscription',
        result: 'COMPLETADO',
        amountCents: planPriceCents.monthly,
        currency: 'USD',
        description: 'Membresía Premium mensual',
        occurredAt: premiumPaidAt,
      });
    });
  } catch (error) {
    // leave the database empty so the next start tries again
    for (const row of created.values()) await accounts.deleteAccount(row.id).catch(() => {});
    for (const key of files.keys()) await storage.delete(key).catch(() => {});
    throw error;
  }
  // the newest procedure's two videos show the data-saver ladder; the others play their MP4 until an Admin asks
  const newest = req(procedureRows[0], 'procedure');
  await deps.queueLadders?.([newest.demoVideo, newest.fullVideo]);
  return true;
}
