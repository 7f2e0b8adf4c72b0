/** The entries screen of one competition, searched for `q` when given (a number, a name, words). */
export const entriesPath = (showcaseId: string, q?: string) =>
  `/admin/programmes?${new URLSearchParams({ showcase: showcaseId, ...(q && { q }) }).toString()}`;
