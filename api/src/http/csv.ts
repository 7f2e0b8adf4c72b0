/** A CSV cell: quoted, and never read as a formula by a spreadsheet. */
export function csvCell(value: unknown): string {
  let text =
    value instanceof Date ? value.toISOString() : value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replaceAll('"', '""')}"`;
}
