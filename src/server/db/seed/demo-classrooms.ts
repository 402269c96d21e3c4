import { randomUUID } from 'node:crypto';
import type { Db } from '#server/db/client.ts';
import { classroomProcedures, classroomUsers, classrooms } from '#server/db/schema/index.ts';
import { asset } from './demo-procedures.ts';
import { dayMs, req, type DemoPeople, type DemoPlan } from './demo-plan.ts';

// Procedures of the demo aulas, by name (demo-procedures.ts).
const classroomProcedureNames = ['Esplenectomía', 'Gastropexia incisional', 'Mastectomía regional en gata'];
const openClassroomProcedureNames = ['Amputación de miembro torácico', 'Cistotomía'];
const expiringClassroomProcedureNames = ['Toracostomía con sonda en gato'];

/** Three aulas: a controlled one with an administrator, an open one and one about to expire. */
export function planClassroomsDemo(
  { ts, store }: DemoPlan,
  {
    procedureId,
    companyId,
    universityId,
  }: { procedureId: (name: string) => string; companyId: string; universityId: string },
) {
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

  return {
    insert: async (tx: Db, { basic, classroomAdmin }: DemoPeople) => {
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
    },
  };
}
