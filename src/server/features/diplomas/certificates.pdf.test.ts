import { describe, expect, it } from 'vitest';
import { PDFArray, PDFDocument, PDFDict, PDFName, PDFRawStream, decodePDFRawStream } from 'pdf-lib';
import { extractText, getDocumentProxy } from 'unpdf';
import { renderCertificatePdf, unprintableCharacters, type CertificateContent } from './certificates.pdf.ts';

const issuedAt = new Date('2026-03-14T18:30:00Z');
const content = (holderName: string): CertificateContent => ({
  holderName,
  diplomaTitle: 'Diplomado en Cirugía de Tejidos Blandos',
  folio: '007',
  issuerName: 'CxVet',
  place: 'Ciudad de México',
  completedOn: '14 de marzo de 2026',
  issuedAt,
  verificationUrl: 'https://cxvet.example/certificados/ABCDEFGH2345',
  verificationCode: 'ABCDEFGH2345',
  backgroundImage: null,
  credential: null,
});

/** Every font dictionary's BaseFont and the glyph ids every text-showing operator of the page draws. */
async function inspect(bytes: Uint8Array) {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const baseFonts: string[] = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (object instanceof PDFDict && object.get(PDFName.of('Type')) === PDFName.of('Font')) {
      const subtype = object.get(PDFName.of('Subtype'));
      if (subtype === PDFName.of('Type0')) baseFonts.push(object.get(PDFName.of('BaseFont'))!.toString().slice(1));
    }
  }
  const contents = doc.getPage(0).node.Contents();
  const streams =
    contents instanceof PDFArray
      ? contents.asArray().map((ref) => doc.context.lookup(ref) as PDFRawStream)
      : contents instanceof PDFRawStream
        ? [contents]
        : [];
  const operators = streams.map((stream) => Buffer.from(decodePDFRawStream(stream).decode()).toString('latin1'));
  const glyphIds = operators.flatMap((text) =>
    [...text.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)].flatMap((found) => found[1]!.match(/.{4}/g) ?? []),
  );
  return { doc, baseFonts, glyphIds };
}

describe('the certificate PDF', () => {
  const name = 'Pablo 李 Prémium Ñúñez 🐶';

  it('prints every character of a name with Chinese, accents and an emoji: no glyph is the empty box', async () => {
    const bytes = await renderCertificatePdf(content(name));
    const { glyphIds, baseFonts } = await inspect(bytes);
    expect(glyphIds.length).toBeGreaterThan(50);
    // glyph 0 is .notdef, the empty box
    expect(glyphIds).not.toContain('0000');
    expect(baseFonts).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^[A-Z]{6}\+Roboto-Bold$/),
        expect.stringMatching(/^[A-Z]{6}\+NotoSansSC-Bold$/),
        expect.stringMatching(/^[A-Z]{6}\+NotoEmoji-Bold$/),
      ]),
    );
    const text = (await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true })).text;
    expect(text.replace(/\s+/g, '')).toContain(name.replace(/\s+/g, ''));
  });

  it('names every embedded subset with the six-letter tag ISO 32000 requires, and embeds the fallbacks only when needed', async () => {
    const { baseFonts } = await inspect(await renderCertificatePdf(content('Ana López')));
    expect(baseFonts.length).toBe(2);
    for (const font of baseFonts) expect(font).toMatch(/^[A-Z]{6}\+Roboto-(Regular|Bold)$/);
  });

  it('dates the PDF at the issue, sets title, author and subject, and gives the same bytes on every download', async () => {
    const first = await renderCertificatePdf(content(name));
    const second = await renderCertificatePdf(content(name));
    expect(Buffer.from(first).equals(Buffer.from(second))).toBe(true);
    const { doc } = await inspect(first);
    expect(doc.getCreationDate()?.toISOString()).toBe(issuedAt.toISOString());
    expect(doc.getModificationDate()?.toISOString()).toBe(issuedAt.toISOString());
    expect(doc.getTitle()).toBe('Constancia — Diplomado en Cirugía de Tejidos Blandos');
    expect(doc.getAuthor()).toBe('CxVet');
    expect(doc.getSubject()).toContain(name);
  });

  it('finds the characters no font of the certificate has (Arabic, Thai) and none in a printable name', async () => {
    expect(await unprintableCharacters(name)).toEqual([]);
    expect(await unprintableCharacters('Σοφία Иванова 田中')).toEqual([]);
    expect(await unprintableCharacters('Omar عمر ไทย')).toEqual(['ع', 'م', 'ر', 'ไ', 'ท', 'ย']);
  });
});
