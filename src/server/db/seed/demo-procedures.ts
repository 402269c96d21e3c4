import { foldForSearch } from '#shared/text.ts';
import type { ProcedureType, Species } from '#shared/catalog/catalog.rules.ts';

/** Sample files in assets/demo (see scripts/make-demo-media.sh). */
export const asset = {
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

export const tagNames = [
  'Ortopedia',
  'Tejidos blandos',
  'Oftalmología',
  'Abdomen',
  'Tórax',
  'Urgencias',
  'Reproducción',
  'Oncología',
] as const;
export type TagName = (typeof tagNames)[number];

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
