import { sql, type SQL, type AnyColumn } from 'drizzle-orm';

const accented = 'ÁÀÄÂÃÉÈËÊÍÌÏÎÓÒÖÔÕÚÙÜÛÑÇáàäâãéèëêíìïîóòöôõúùüûñç';
const plain = 'aaaaaeeeeiiiiooooouuuuncaaaaaeeeeiiiiooooouuuunc';

/** Lower-case and accent-free in SQL, matching foldForSearch in the browser (no unaccent extension needed). */
export function foldSql(column: AnyColumn | SQL): SQL {
  return sql`translate(lower(${column}), ${accented}, ${plain})`;
}

/** A LIKE pattern that matches the text anywhere, with the user's % and _ taken literally. */
export function containsPattern(folded: string): string {
  return `%${folded.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}
