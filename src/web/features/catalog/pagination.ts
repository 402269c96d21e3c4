export type PageItem = number | 'ellipsis-start' | 'ellipsis-end';

/** Spec 1 §9: about two pages each side of the current one, the first and last always, ellipses between. */
export function paginationWindow(current: number, totalPages: number, siblings = 2): PageItem[] {
  if (totalPages <= 1) return totalPages === 1 ? [1] : [];
  const page = Math.min(Math.max(current, 1), totalPages);
  const start = Math.max(2, page - siblings);
  const end = Math.min(totalPages - 1, page + siblings);
  const items: PageItem[] = [1];
  if (start > 2) items.push(start === 3 ? 2 : 'ellipsis-start');
  for (let number = start; number <= end; number++) items.push(number);
  if (end < totalPages - 1) items.push(end === totalPages - 2 ? totalPages - 1 : 'ellipsis-end');
  items.push(totalPages);
  return items;
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
