// Title cards for the demo procedures: name, species, type and the full video's length, one JPEG each.
// Run by scripts/make-demo-media.sh (needs ffmpeg and fonts-dejavu-core); the outputs are committed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { demoProcedures, procedureCardFile } from '../src/server/db/seed/demo-procedures.ts';

const out = path.resolve(import.meta.dirname, '..', 'assets', 'demo');
const bold = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
const regular = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const fullVideoSeconds = 45;
const colours: Record<string, [string, string]> = {
  Perro: ['0x0b4f6c', '0x1b98c9'],
  Gato: ['0x1d5c3a', '0x3fa56b'],
  'Otras especies': ['0x5c1a2b', '0xb0445f'],
};

/** Splits a name into lines of at most `width` characters, on spaces. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const last = lines.at(-1);
    if (last !== undefined && `${last} ${word}`.length <= width) lines[lines.length - 1] = `${last} ${word}`;
    else lines.push(word);
  }
  return lines;
}

const work = mkdtempSync(path.join(tmpdir(), 'cxvet-cards-'));
try {
  for (const procedure of demoProcedures) {
    const [from, to] = colours[procedure.species] ?? ['0x12343b', '0x1f6f8b'];
    const lines = wrap(procedure.name, 24);
    const texts: [string, string][] = [
      ['brand', 'CxVet · Cirugía veterinaria'],
      ...lines.map((line, index): [string, string] => [`line${index}`, line]),
      ['species', `${procedure.species} · ${procedure.type === 'Premium' ? 'Premium' : 'Gratis'}`],
      ['length', `Video completo 0:${fullVideoSeconds} · ${procedure.chapters.length} secciones`],
    ];
    for (const [name, text] of texts) writeFileSync(path.join(work, `${name}.txt`), text);
    const file = (name: string) => path.join(work, `${name}.txt`).replaceAll(':', '\\:');
    const top = 360 - (lines.length * 74) / 2 - 20;
    const filters = [
      `drawtext=fontfile=${regular}:textfile=${file('brand')}:fontcolor=white@0.85:fontsize=30:x=56:y=48`,
      ...lines.map(
        (_, index) =>
          `drawtext=fontfile=${bold}:textfile=${file(`line${index}`)}:fontcolor=white:fontsize=64:x=(w-tw)/2:y=${top + index * 74}`,
      ),
      `drawtext=fontfile=${regular}:textfile=${file('species')}:fontcolor=white:fontsize=36:x=(w-tw)/2:y=${top + lines.length * 74 + 24}`,
      `drawbox=x=0:y=640:w=1090:h=80:color=black@0.35:t=fill`,
      `drawtext=fontfile=${regular}:textfile=${file('length')}:fontcolor=white:fontsize=30:x=56:y=664`,
    ];
    execFileSync('ffmpeg', [
      '-hide_banner',
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `gradients=s=1090x720:c0=${from}:c1=${to}:x0=0:y0=0:x1=1090:y1=720:nb_colors=2:d=1`,
      '-vf',
      filters.join(','),
      '-frames:v',
      '1',
      '-q:v',
      '14',
      path.join(out, procedureCardFile(procedure.name)),
    ]);
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
