/** Removes Spanish (and any combining) accents: 'Cirugía' → 'Cirugia'. The one accent fold; the database side is foldSql. */
export function stripAccents(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

/** Folds case and Spanish accents, as the database side does, for the search box. */
export function foldForSearch(text: string): string {
  return stripAccents(text).toLowerCase();
}
