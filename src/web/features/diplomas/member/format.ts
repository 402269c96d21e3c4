/** USD with two decimals, as the spec prices diplomas. */
export function formatUsd(cents: number): string {
  return `${(cents / 100).toFixed(2)} USD`;
}

/** Strips tags for a clamped plain-text summary of a rich-text description. */
export function plainText(html: string): string {
  // a space after each block so paragraphs and list items do not run together
  const spaced = html.replace(/<\/(p|li|h[1-6]|div)>/gi, '$& ');
  return new DOMParser().parseFromString(spaced, 'text/html').body.textContent?.replace(/\s+/g, ' ').trim() ?? '';
}
