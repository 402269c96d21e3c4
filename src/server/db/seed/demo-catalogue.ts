import { randomUUID } from 'node:crypto';
import type { Db } from '#server/db/client.ts';
import { procedureCaptions, procedureChapters, procedureTags, procedures, tags } from '#server/db/schema/index.ts';
import { asset, demoProcedures, procedureCardFile, tagNames, type TagName } from './demo-procedures.ts';
import { dayMs, req, type DemoPlan } from './demo-plan.ts';

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
/** The catalogue: tags, procedures with their chapters and subtitles. */
export function planCatalogueDemo({ now, ts, store }: DemoPlan) {
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

  return {
    /** The newest procedure, whose two videos get the data-saver ladder. */
    newest: req(procedureRows[0], 'procedure'),
    procedureId,
    captionFiles,
    insert: async (tx: Db) => {
      await tx.insert(tags).values(tagRows);
      await tx.insert(procedures).values(procedureRows);
      await tx.insert(procedureChapters).values(chapterRows);
      await tx.insert(procedureCaptions).values(captionRows);
      await tx.insert(procedureTags).values(procedureTagRows);
    },
  };
}
