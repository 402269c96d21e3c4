import { randomUUID } from 'node:crypto';
import type { Db } from '#server/db/client.ts';
import {
  diplomaUsers,
  diplomaVideoChapters,
  diplomaVideoFiles,
  diplomaVideos,
  diplomas,
  examAnswers,
  examQuestions,
  examResults,
  exams,
} from '#server/db/schema/index.ts';
import { asset } from './demo-procedures.ts';
import { dayMs, req, type DemoPeople, type DemoPlan } from './demo-plan.ts';

// The catalogue procedure linked into both diplomas, by name (demo-procedures.ts).
const diplomaLinkedProcedureName = 'Extracción de cuerpo extraño intestinal';

/** A diploma with two exams premium has begun, an External one on sale and a hidden test diploma. */
export function planDiplomasDemo(
  { now, ts, store }: DemoPlan,
  { procedureId, companyId }: { procedureId: (name: string) => string; companyId: string },
) {
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
  return {
    insert: async (tx: Db, { premium, diplomaAdmin }: DemoPeople) => {
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
          // sold in pesos too: the demo's simulated Mercado Pago takes card, OXXO and SPEI
          costMxnCents: 229900,
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
    },
  };
}
