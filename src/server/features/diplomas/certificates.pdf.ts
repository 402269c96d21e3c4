import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit, { type Font } from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type Color, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import QRCode from 'qrcode';

const require = createRequire(import.meta.url);

// Roboto prints Latin, Greek and Cyrillic; Noto Sans SC adds Chinese, kana and more; Noto Emoji adds emoji (monochrome)
const faces = {
  regular: [
    { name: 'Roboto-Regular', file: require.resolve('@expo-google-fonts/roboto/400Regular/Roboto_400Regular.ttf') },
    {
      name: 'NotoSansSC-Regular',
      file: require.resolve('@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf'),
    },
    {
      name: 'NotoEmoji-Regular',
      file: require.resolve('@expo-google-fonts/noto-emoji/400Regular/NotoEmoji_400Regular.ttf'),
    },
  ],
  bold: [
    { name: 'Roboto-Bold', file: require.resolve('@expo-google-fonts/roboto/700Bold/Roboto_700Bold.ttf') },
    {
      name: 'NotoSansSC-Bold',
      file: require.resolve('@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf'),
    },
    { name: 'NotoEmoji-Bold', file: require.resolve('@expo-google-fonts/noto-emoji/700Bold/NotoEmoji_700Bold.ttf') },
  ],
} as const;
type FaceName = keyof typeof faces;

type LoadedFont = { name: string; bytes: Uint8Array; font: Font };
const loaded = new Map<string, Promise<LoadedFont>>();

function loadFont(entry: { name: string; file: string }): Promise<LoadedFont> {
  let font = loaded.get(entry.file);
  if (!font) {
    font = readFile(entry.file).then((bytes) => ({ name: entry.name, bytes, font: fontkit.create(bytes) }));
    loaded.set(entry.file, font);
  }
  return font;
}

// variation selectors, joiners and other default-ignorable marks shape emoji but print nothing of their own
const isIgnorable = (codePoint: number) =>
  (codePoint >= 0xfe00 && codePoint <= 0xfe0f) ||
  (codePoint >= 0x200b && codePoint <= 0x200f) ||
  codePoint === 0x2060 ||
  (codePoint >= 0xe0100 && codePoint <= 0xe01ef);

type Run = { text: string; font: number };

/** The text cut into runs of the first font of the chain that has each character; -1 for a character none has. */
function runsOf(text: string, chain: LoadedFont[]): Run[] {
  const runs: Run[] = [];
  for (const character of text) {
    const codePoint = character.codePointAt(0)!;
    if (isIgnorable(codePoint)) continue;
    const font = chain.findIndex((candidate) => candidate.font.hasGlyphForCodePoint(codePoint));
    const last = runs.at(-1);
    if (last && last.font === font) last.text += character;
    else runs.push({ text: character, font });
  }
  return runs;
}

/** The characters of a text the certificate's fonts cannot print (none, or each once, in order). */
export async function unprintableCharacters(text: string): Promise<string[]> {
  const chain = await Promise.all(faces.regular.map(loadFont));
  const missing: string[] = [];
  for (const run of runsOf(text, chain))
    if (run.font === -1) for (const character of run.text) if (!missing.includes(character)) missing.push(character);
  return missing;
}

/**
 * ISO 32000-1 §9.6.4: an embedded subset's name starts with six capital letters and '+', the same for the same
 * subset (here: the same font and the same text drawn with it, so every download is byte-identical).
 */
function subsetTag(fontName: string, texts: string[]): string {
  const digest = createHash('sha256').update(fontName).update('\0').update(texts.join('\0')).digest();
  return Array.from(digest.subarray(0, 6), (byte) => String.fromCharCode(65 + (byte % 26))).join('');
}

export type Face = {
  widthOf: (text: string, size: number) => number;
  draw: (page: PDFPage, text: string, options: { x: number; y: number; size: number; color: Color }) => void;
};

/** A face that prints every text it will be given, falling back along its chain; only the fonts used are embedded. */
export async function embedFace(doc: PDFDocument, face: FaceName, texts: string[]): Promise<Face> {
  const chain = await Promise.all(faces[face].map(loadFont));
  const used = chain.map(() => [] as string[]);
  for (const text of texts)
    for (const run of runsOf(text, chain)) {
      if (run.font === -1) throw new Error(`La constancia no puede imprimir: ${run.text}`);
      used[run.font]!.push(run.text);
    }
  const embedded: (PDFFont | null)[] = await Promise.all(
    chain.map((entry, index) =>
      index === 0 || used[index]!.length > 0
        ? doc.embedFont(entry.bytes, {
            subset: true,
            customName: `${subsetTag(entry.name, used[index]!)}+${entry.name}`,
          })
        : null,
    ),
  );
  const fontOf = (run: Run) => embedded[run.font]!;
  return {
    widthOf: (text, size) =>
      runsOf(text, chain).reduce((sum, run) => sum + fontOf(run).widthOfTextAtSize(run.text, size), 0),
    draw(page, text, { x, y, size, color }) {
      let left = x;
      for (const run of runsOf(text, chain)) {
        page.drawText(run.text, { x: left, y, size, font: fontOf(run), color });
        left += fontOf(run).widthOfTextAtSize(run.text, size);
      }
    },
  };
}

// Spec 3 §9: landscape, 16 × 12 inches (72 pt each)
const certificatePageSize = { width: 16 * 72, height: 12 * 72 } as const;

export type CertificateContent = {
  holderName: string;
  diplomaTitle: string;
  folio: string;
  issuerName: string;
  /** Where it is issued, printed before the date. */
  place: string;
  completedOn: string;
  /** When the certificate was issued: the PDF's creation date. */
  issuedAt: Date;
  verificationUrl: string;
  verificationCode: string;
  /** The diploma's certificate image (PNG or JPEG) drawn as the page background. */
  backgroundImage: Uint8Array | null;
  /** The signed Open Badges credential, attached as credential.json; null when it could not be signed. */
  credential: object | null;
  /** Continuing-education lines (hours, category, delivery method, bodies), printed under the date. */
  creditLines?: string[];
  /** The line before the title; a diploma's ('por haber concluido satisfactoriamente el') when not given. */
  reason?: string;
};

async function embedImage(doc: PDFDocument, bytes: Uint8Array): Promise<PDFImage | null> {
  const isPng = bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47;
  const isJpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
  try {
    if (isPng) return await doc.embedPng(bytes);
    if (isJpeg) return await doc.embedJpg(bytes);
  } catch {
    return null;
  }
  return null;
}

/** The certificate as PDF bytes: the same input always gives the same bytes. */
export async function renderCertificatePdf(content: CertificateContent): Promise<Uint8Array> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.registerFontkit(fontkit);
  doc.setTitle(`Constancia — ${content.diplomaTitle}`);
  doc.setAuthor(content.issuerName);
  doc.setSubject(`Constancia otorgada a ${content.holderName} por concluir el ${content.diplomaTitle}`);
  doc.setCreator(content.issuerName);
  doc.setProducer('CxVet');
  // the issue date, not the download's: every download of a certificate stays byte-identical
  doc.setCreationDate(content.issuedAt);
  doc.setModificationDate(content.issuedAt);
  const heading = 'CONSTANCIA';
  const lines = {
    issuer: `${content.issuerName} otorga la presente constancia a`,
    reason: content.reason ?? 'por haber concluido satisfactoriamente el',
    placeAndDate: `${content.place}, ${content.completedOn}`,
    folio: `Folio: ${content.folio}`,
    code: `Código de verificación: ${content.verificationCode}`,
  };
  const hasBackground = content.backgroundImage !== null;
  const font = await embedFace(doc, 'regular', [
    lines.issuer,
    lines.reason,
    lines.placeAndDate,
    lines.code,
    content.verificationUrl,
    ...(content.creditLines ?? []),
  ]);
  const fontBold = await embedFace(doc, 'bold', [
    ...(hasBackground ? [] : [heading]),
    content.holderName,
    content.diplomaTitle,
    lines.folio,
  ]);
  const { width, height } = certificatePageSize;
  const page = doc.addPage([width, height]);

  const background = content.backgroundImage ? await embedImage(doc, content.backgroundImage) : null;
  if (background) {
    page.drawImage(background, { x: 0, y: 0, width, height });
  } else {
    page.drawRectangle({
      x: 36,
      y: 36,
      width: width - 72,
      height: height - 72,
      borderColor: rgb(0.12, 0.3, 0.55),
      borderWidth: 6,
    });
    fontBold.draw(page, heading, {
      x: (width - fontBold.widthOf(heading, 64)) / 2,
      y: height - 200,
      size: 64,
      color: rgb(0.12, 0.3, 0.55),
    });
  }

  const ink = rgb(0.1, 0.1, 0.12);
  const margin = 120;
  /** One centred line, made smaller (never below 12 pt) until it fits between the margins. */
  const centered = (text: string, y: number, size: number, useBold = false) => {
    const face = useBold ? fontBold : font;
    let fitted = size;
    while (fitted > 12 && face.widthOf(text, fitted) > width - 2 * margin) fitted -= 1;
    face.draw(page, text, { x: (width - face.widthOf(text, fitted)) / 2, y, size: fitted, color: ink });
  };
  // one sentence, read top to bottom: 'CxVet otorga la presente constancia a {nombre} por haber concluido
  // satisfactoriamente el {diplomado}', then place and date; folio and verification code at the foot
  const middle = height / 2 + 40;
  centered(lines.issuer, middle + 110, 26);
  centered(content.holderName, middle + 30, 54, true);
  centered(lines.reason, middle - 40, 26);
  centered(content.diplomaTitle, middle - 100, 34, true);
  centered(lines.placeAndDate, middle - 170, 22);
  (content.creditLines ?? []).slice(0, 4).forEach((line, index) => centered(line, middle - 215 - index * 24, 16));

  // the QR as one path of unit squares, filled together: no seams between modules in any viewer
  const qr = QRCode.create(content.verificationUrl, { errorCorrectionLevel: 'M' });
  const modules = qr.modules;
  const quiet = 2;
  const box = 150;
  const cell = box / (modules.size + quiet * 2);
  const left = width - 90 - box;
  const bottom = 90;
  page.drawRectangle({ x: left, y: bottom, width: box, height: box, color: rgb(1, 1, 1) });
  let path = '';
  for (let row = 0; row < modules.size; row++) {
    // a run of dark modules in a row is one rectangle
    for (let col = 0; col < modules.size; col++) {
      if (!modules.get(row, col)) continue;
      let run = 1;
      while (col + run < modules.size && modules.get(row, col + run)) run++;
      path += `M${col + quiet} ${row + quiet}h${run}v1h-${run}z`;
      col += run - 1;
    }
  }
  // drawSvgPath's origin is the top-left corner, y pointing down, as in the QR's own rows
  page.drawSvgPath(path, { x: left, y: bottom + box, scale: cell, color: rgb(0, 0, 0), borderWidth: 0 });

  fontBold.draw(page, lines.folio, { x: 90, y: bottom + 40, size: 22, color: ink });
  font.draw(page, lines.code, { x: 90, y: bottom + 10, size: 16, color: ink });
  const verifyLine = content.verificationUrl;
  font.draw(page, verifyLine, { x: left + box - font.widthOf(verifyLine, 11), y: bottom - 18, size: 11, color: ink });

  if (content.credential) {
    await doc.attach(Buffer.from(JSON.stringify(content.credential, null, 2)), 'credential.json', {
      mimeType: 'application/json',
      description: 'Credencial Open Badges 3.0 firmada',
      creationDate: content.issuedAt,
      modificationDate: content.issuedAt,
    });
  }
  return doc.save({ useObjectStreams: false });
}
