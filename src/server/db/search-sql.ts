import { sql, type SQL, type AnyColumn } from 'drizzle-orm';

const accented = 'ÁÀÄÂÃÉÈËÊÍÌÏÎÓÒÖÔÕÚÙÜÛÑÇáàäâãéèëêíìïîóòöôõúùüûñç';
const plain = 'aaaaaeeeeiiiiooooouuuuncaaaaaeeeeiiiiooooouuuunc';

/** Lower-case and accent-free in SQL, matching foldForSearch in the browser (no unaccent extension needed). */
export function foldSql(column: AnyColumn | SQL): SQL {
  return sql`translate(lower(${column}), ${accented}, ${plain})`;
}

/** The user's %, _ and backslash taken literally in a LIKE pattern (the one LIKE escape). */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** A LIKE pattern that matches the text anywhere, with the user's % and _ taken literally. */
export function containsPattern(text: string): string {
  return `%${escapeLike(text)}%`;
}
