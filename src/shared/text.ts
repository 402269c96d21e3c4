/** Removes Spanish (and any combining) accents: 'Cirugía' → 'Cirugia'. The one accent fold; the database side is foldSql. */
export function stripAccents(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

/** Folds case and Spanish accents, as the database side does, for the search box. */
export function foldForSearch(text: string): string {
  return stripAccents(text).toLowerCase();
}

const pluralRules = new Intl.PluralRules('es');

/** A count with its noun in the right number: countOf(1, 'usuario', 'usuarios') → '1 usuario'. */
export function countOf(count: number, singular: string, plural: string): string {
  return `${count} ${pluralRules.select(count) === 'one' ? singular : plural}`;
}

/** An e-mail address cut into pieces that may end a line: after '@' and before each '.', never mid-word. */
export function emailBreakParts(email: string): string[] {
  return email.split(/(?<=@)|(?=\.)/);
}
