import webvtt from 'webvtt-parser';
import { errorMessages } from '#shared/error-messages.ts';

type Problem = { line: number; reason: string };

const timingReason = 'la línea de tiempo debe tener la forma 00:00:01.000 --> 00:00:04.000';

// the parser's English messages, grouped into the reasons an admin can act on
const reasons: [RegExp, string][] = [
  [/signature/i, 'el archivo debe comenzar con la palabra WEBVTT'],
  [/not greater than start/i, 'el final de un subtítulo debe ser posterior a su inicio'],
  [/timestamp|digits|separator|seconds|time unit|decimal/i, timingReason],
  [/cue identifier/i, 'a un identificador de subtítulo le debe seguir su línea de tiempo'],
  [/blank line/i, 'falta una línea en blanco entre subtítulos'],
  [/tag|annotation|escape/i, 'una etiqueta de formato del texto está mal escrita'],
  [/setting|position|alignment|size/i, 'un ajuste de posición del subtítulo no es válido'],
];

function spanishReason(message: string): string {
  return reasons.find(([pattern]) => pattern.test(message))?.[1] ?? 'el formato del subtítulo no es correcto';
}

/** Checks a caption file: UTF-8 text, the WEBVTT signature, well-formed cues; null when valid, else the first problem. */
export function findWebVttProblem(bytes: Buffer): Problem | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { line: 1, reason: 'el archivo debe estar guardado con codificación UTF-8' };
  }
  const content = text.replace(/^\uFEFF/, '');
  const result = new webvtt.WebVTTParser().parse(content, 'subtitles');
  const [first] = [...result.errors].sort((a, b) => a.line - b.line);
  if (first && /identifier needs to be followed by timestamp/i.test(first.message)) {
    // the parser took the line before for a cue identifier: usually a mistyped timing line
    const previous = content.split(/\r\n|\r|\n/)[first.line - 2] ?? '';
    if (/\d:\d/.test(previous)) return { line: first.line - 1, reason: timingReason };
    return {
      line: first.line,
      reason: 'falta la línea de tiempo del subtítulo, con la forma 00:00:01.000 --> 00:00:04.000',
    };
  }
  if (first) return { line: first.line, reason: spanishReason(first.message) };
  if (result.cues.length === 0) return { line: 1, reason: 'el archivo no contiene ningún subtítulo' };
  return null;
}

/** The sentence the form shows under the field, e.g. 'Línea 3: la línea de tiempo debe tener…'. */
export function describeWebVttProblem(problem: Problem): string {
  return `${errorMessages.CAPTIONS_INVALID.message} Línea ${problem.line}: ${problem.reason}.`;
}
