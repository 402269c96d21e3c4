export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** The HTML frame shared by every mail the site sends. */
export function layoutMail(title: string, bodyHtml: string): string {
  return `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family:Arial,sans-serif;color:#1a1b1e;max-width:600px;margin:0 auto;padding:16px">
<h1 style="font-size:20px;color:#0b5d8f">${escapeHtml(title)}</h1>
${bodyHtml}
<p style="font-size:12px;color:#555">CxVet · Cirugía veterinaria</p>
</body></html>`;
}
