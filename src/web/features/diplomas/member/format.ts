/** USD with two decimals, as the spec prices diplomas. */
export function formatUsd(cents: number): string {
  return `${(cents / 100).toFixed(2)} USD`;
}

/** Strips tags for a clamped plain-text summary of a rich-text description. */
export function plainText(html: string): string {
  return new DOMParser().parseFromString(html, 'text/html').body.textContent?.trim() ?? '';
}
