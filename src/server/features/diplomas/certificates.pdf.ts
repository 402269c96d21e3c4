import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFImage } from 'pdf-lib';
import QRCode from 'qrcode';

const require = createRequire(import.meta.url);
const fontFiles = {
  regular: require.resolve('@expo-google-fonts/roboto/400Regular/Roboto_400Regular.ttf'),
  bold: require.resolve('@expo-google-fonts/roboto/700Bold/Roboto_700Bold.ttf'),
};
let fonts: Promise<{ regular: Uint8Array; bold: Uint8Array }> | null = null;

function loadFonts() {
  fonts ??= Promise.all([readFile(fontFiles.regular), readFile(fontFiles.bold)]).then(([regular, bold]) => ({
    regular,
    bold,
  }));
  return fonts;
}

// Spec 3 §9: landscape, 16 × 12 inches (72 pt each)
const certificatePageSize = { width: 16 * 72, height: 12 * 72 } as const;
// a fixed date keeps every download byte-identical
const fixedDate = new Date('2000-01-01T00:00:00Z');

export type CertificateContent = {
  holderName: string;
  diplomaTitle: string;
  folio: string;
  issuerName: string;
  /** Where it is issued, printed before the date. */
  place: string;
  completedOn: string;
  verificationUrl: string;
  verificationCode: string;
  /** The diploma's certificate image (PNG or JPEG) drawn as the page background. */
  backgroundImage: Uint8Array | null;
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
  doc.setCreationDate(fixedDate);
  doc.setModificationDate(fixedDate);
  const { regular, bold } = await loadFonts();
  const font = await doc.embedFont(regular, { subset: true, customName: 'Roboto-Regular' });
  const fontBold = await doc.embedFont(bold, { subset: true, customName: 'Roboto-Bold' });
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
    const heading = 'CONSTANCIA';
    page.drawText(heading, {
      x: (width - fontBold.widthOfTextAtSize(heading, 64)) / 2,
      y: height - 200,
      size: 64,
      font: fontBold,
      color: rgb(0.12, 0.3, 0.55),
    });
  }

  const ink = rgb(0.1, 0.1, 0.12);
  const margin = 120;
  /** One centred line, made smaller (never below 12 pt) until it fits between the margins. */
  const centered = (text: string, y: number, size: number, useBold = false) => {
    const face = useBold ? fontBold : font;
    let fitted = size;
    while (fitted > 12 && face.widthOfTextAtSize(text, fitted) > width - 2 * margin) fitted -= 1;
    page.drawText(text, {
      x: (width - face.widthOfTextAtSize(text, fitted)) / 2,
      y,
      size: fitted,
      font: face,
      color: ink,
    });
  };
  // one sentence, read top to bottom: 'CxVet otorga la presente constancia a {nombre} por haber concluido
  // satisfactoriamente el {diplomado}', then place and date; folio and verification code at the foot
  const middle = height / 2 + 40;
  centered(`${content.issuerName} otorga la presente constancia a`, middle + 110, 26);
  centered(content.holderName, middle + 30, 54, true);
  centered('por haber concluido satisfactoriamente el', middle - 40, 26);
  centered(content.diplomaTitle, middle - 100, 34, true);
  centered(`${content.place}, ${content.completedOn}`, middle - 170, 22);

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

  page.drawText(`Folio: ${content.folio}`, { x: 90, y: bottom + 40, size: 22, font: fontBold, color: ink });
  page.drawText(`Código de verificación: ${content.verificationCode}`, {
    x: 90,
    y: bottom + 10,
    size: 16,
    font,
    color: ink,
  });
  const verifyLine = content.verificationUrl;
  page.drawText(verifyLine, {
    x: left + box - font.widthOfTextAtSize(verifyLine, 11),
    y: bottom - 18,
    size: 11,
    font,
    color: ink,
  });

  return doc.save({ useObjectStreams: false });
}
