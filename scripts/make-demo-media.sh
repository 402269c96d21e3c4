#!/usr/bin/env bash
# Regenerates the small sample media in assets/demo that the demo seed copies into storage.
# Run once by hand; the outputs are committed, so the product never needs these tools.
# Needs: apt-get install -y ffmpeg imagemagick fonts-dejavu-core, and node (for the PDF).
set -euo pipefail

cd "$(dirname "$0")/.."
out=assets/demo
mkdir -p "$out"

font=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf
font_regular=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
convert=/usr/bin/convert # ImageMagick 6

# Procedure previews, 1090x720 (the spec's minimum preview size), in three colours.
preview() { # name from to
  "$convert" -size 1090x720 "gradient:$2-$3" \
    -font "$font" -fill white -gravity center -pointsize 150 -annotate +0-60 'CxVet' \
    -font "$font_regular" -pointsize 42 -annotate +0+70 'Cirugía veterinaria' \
    -pointsize 26 -fill '#ffffffcc' -annotate +0+140 'Imagen de demostración' \
    -strip -sampling-factor 4:2:0 -interlace JPEG -quality 72 "$out/$1"
}
preview preview-azul.jpg '#0b4f6c' '#1b98c9'
preview preview-verde.jpg '#1d5c3a' '#3fa56b'
preview preview-vino.jpg '#5c1a2b' '#b0445f'

# Landing hero, 1600x700, dark enough for white text; no text of its own (the slide's title goes on top).
"$convert" -size 1600x700 'gradient:#0e2a3b-#1f6f8b' \
  -fill '#ffffff14' -draw 'circle 1250,200 1250,520' -draw 'circle 300,620 300,820' \
  -strip -sampling-factor 4:2:0 -interlace JPEG -quality 72 "$out/hero.jpg"

# A light hero variant for a slide with black text.
"$convert" -size 1600x700 'gradient:#f4f1e8-#cfe6ee' \
  -fill '#0e2a3b0f' -draw 'circle 1300,150 1300,450' -draw 'circle 250,600 250,800' \
  -strip -sampling-factor 4:2:0 -interlace JPEG -quality 72 "$out/hero-claro.jpg"

# Organization logo, 300x150, transparent background.
"$convert" -size 300x150 xc:none \
  -fill '#1b6f8f' -draw 'roundrectangle 6,6 294,144 24,24' \
  -font "$font" -fill white -gravity center -pointsize 64 -annotate +0-10 'CxVet' \
  -font "$font_regular" -pointsize 18 -annotate +0+45 'Organización demo' \
  -strip -define png:compression-level=9 "$out/logo.png"

# Certificate background, 1600x1200 (the certificate PDF is 16 by 12 inches): a frame only, since every
# word on the certificate is drawn by the PDF in its one font (docs/decisions/028-certificate-layout.md).
"$convert" -size 1600x1200 xc:'#fbf8ef' \
  -fill none -stroke '#1b6f8f' -strokewidth 18 -draw 'rectangle 40,40 1560,1160' \
  -stroke '#c9a227' -strokewidth 4 -draw 'rectangle 80,80 1520,1120' -stroke none \
  -strip -sampling-factor 4:2:0 -quality 72 "$out/certificado.jpg"

# Procedure video: 30 s, 640x360, H.264 + AAC, running timer, a progress bar and a beep every 5 s.
# The bar slides in from the left under a strip painted in the background colour (overlay is per frame).
graph="[0:v]drawbox=x=40:y=300:w=560:h=16:color=white@0.35:t=fill[track]"
graph="$graph;[track][1:v]overlay=x='40-560+560*t/30':y=300:eval=frame,drawbox=x=0:y=300:w=40:h=16:color=0x12343b:t=fill"
graph="$graph,drawtext=fontfile=$font:text='CxVet':fontcolor=white:fontsize=44:x=(w-tw)/2:y=40"
graph="$graph,drawtext=fontfile=$font_regular:text='Video de demostración':fontcolor=white@0.8:fontsize=24:x=(w-tw)/2:y=100"
graph="$graph,drawtext=fontfile=$font:text='%{pts\\:hms}':fontcolor=white:fontsize=64:x=(w-tw)/2:y=170[v]"
ffmpeg -hide_banner -loglevel error -y \
  -f lavfi -i 'color=c=0x12343b:s=640x360:r=15:d=30' \
  -f lavfi -i 'color=c=0x4fc3f7:s=560x16:r=15:d=30' \
  -f lavfi -i 'aevalsrc=0.2*sin(2*PI*880*t)*lt(mod(t\,5)\,0.15):s=22050:d=30' \
  -filter_complex "$graph" -map '[v]' -map 2:a \
  -c:v libx264 -profile:v main -pix_fmt yuv420p -preset veryslow -crf 30 -g 30 \
  -c:a aac -ac 1 -b:a 24k -movflags +faststart -map_metadata -1 "$out/video.mp4"

# The full video members get: 45 s, another palette, no demo label, so it differs visibly from the demo.
graph="[0:v]drawbox=x=40:y=300:w=560:h=16:color=white@0.35:t=fill[track]"
graph="$graph;[track][1:v]overlay=x='40-560+560*t/45':y=300:eval=frame,drawbox=x=0:y=300:w=40:h=16:color=0x2a1446:t=fill"
graph="$graph,drawtext=fontfile=$font:text='CxVet':fontcolor=white:fontsize=44:x=(w-tw)/2:y=40"
graph="$graph,drawtext=fontfile=$font_regular:text='Video completo · para miembros':fontcolor=0xffd54f:fontsize=24:x=(w-tw)/2:y=100"
graph="$graph,drawtext=fontfile=$font:text='%{pts\\:hms}':fontcolor=white:fontsize=64:x=(w-tw)/2:y=170[v]"
ffmpeg -hide_banner -loglevel error -y \
  -f lavfi -i 'color=c=0x2a1446:s=640x360:r=10:d=45' \
  -f lavfi -i 'color=c=0xffd54f:s=560x16:r=10:d=45' \
  -f lavfi -i 'aevalsrc=0.2*sin(2*PI*660*t)*lt(mod(t\,5)\,0.15):s=22050:d=45' \
  -filter_complex "$graph" -map '[v]' -map 2:a \
  -c:v libx264 -profile:v main -pix_fmt yuv420p -preset veryslow -crf 32 -g 30 \
  -c:a aac -ac 1 -b:a 24k -movflags +faststart -map_metadata -1 "$out/video-completo.mp4"

# A title card per demo procedure (name, species, type, the full video's length).
node --import tsx scripts/make-procedure-cards.ts

# The same video as WebM (VP9 + Opus) for the diploma's own video.
ffmpeg -hide_banner -loglevel error -y -i "$out/video.mp4" \
  -c:v libvpx-vp9 -crf 45 -b:v 0 -row-mt 1 -g 30 -c:a libopus -b:a 24k -map_metadata -1 "$out/video.webm"

# PDF guide: a hand-written PDF 1.4 with the standard Helvetica font (WinAnsi covers Spanish accents).
node - "$out/guia.pdf" <<'EOF'
const { writeFileSync } = require('node:fs');
const lines = [
  ['F2', 20, 'CxVet - Guía del procedimiento'],
  ['F1', 11, 'Documento de demostración para el catálogo de cirugías.'],
  ['F1', 11, ''],
  ['F2', 13, '1. Preparación del paciente'],
  ['F1', 11, 'Ayuno de sólidos de 8 a 12 horas; valoración preanestésica completa.'],
  ['F1', 11, 'Tricotomía amplia y antisepsia de la zona quirúrgica.'],
  ['F1', 11, ''],
  ['F2', 13, '2. Material e instrumental'],
  ['F1', 11, 'Paquete básico de cirugía, separadores, sutura absorbible 2-0 y 3-0.'],
  ['F1', 11, ''],
  ['F2', 13, '3. Técnica quirúrgica'],
  ['F1', 11, 'Abordaje, exposición, procedimiento principal y cierre por planos.'],
  ['F1', 11, 'Consulte las secciones navegables del video para cada paso.'],
  ['F1', 11, ''],
  ['F2', 13, '4. Cuidados postoperatorios'],
  ['F1', 11, 'Analgesia multimodal, collar isabelino y revisión a los 10 días.'],
  ['F1', 11, ''],
  ['F1', 9, '¿Dudas? Escríbenos desde la página de contacto. Material exclusivo para miembros.'],
];
const esc = (s) => s.replace(/[\\()]/g, (c) => '\\' + c);
let y = 780;
const ops = ['BT'];
for (const [font, size, text] of lines) {
  ops.push(`/${font} ${size} Tf 1 0 0 1 56 ${y} Tm (${esc(text)}) Tj`);
  y -= size + 10;
}
ops.push('ET');
const content = ops.join('\n');
const objects = [
  '<< /Type /Catalog /Pages 2 0 R >>',
  '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
  '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R /F2 6 0 R >> >> >>',
  `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
  '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
  '<< /Title (CxVet - Guia del procedimiento) /Producer (make-demo-media.sh) >>',
];
let pdf = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
const offsets = [];
objects.forEach((body, i) => {
  offsets.push(Buffer.byteLength(pdf, 'latin1'));
  pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
});
const xref = Buffer.byteLength(pdf, 'latin1');
pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
for (const offset of offsets) pdf += `${String(offset).padStart(10, '0')} 00000 n \n`;
pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 7 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
writeFileSync(process.argv[2], Buffer.from(pdf, 'latin1'));
EOF

ls -l "$out"
du -sh "$out"
