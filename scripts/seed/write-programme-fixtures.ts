// Writes the committed programme fixtures of the tests (run again only to change them):
// test/fixtures/programme-300.csv: 300 rows, UTF-8 with a BOM (Excel's "CSV UTF-8"), macrons, and two
// rows the preview must flag (entry 120 again on row 202, and entry 250 with no dancer);
// test/fixtures/programme-win1252.csv: 60 rows as Excel's plain "CSV" writes them on Windows
// (Windows-1252: Zoë and Renée keep their letters, which that code page has; it has no macrons, so those
// names arrive without them).
import { writeFile } from 'node:fs/promises';
import iconv from 'iconv-lite';
import { demoProgramme, programmeCsv } from './programme.ts';

const dir = new URL('../../test/fixtures/', import.meta.url);
const rows = demoProgramme(300);
rows[200] = { ...rows[200]!, entryNumber: '120' };
rows[249] = { ...rows[249]!, dancers: [] };
await writeFile(new URL('programme-300.csv', dir), `\uFEFF${programmeCsv(rows)}`);

const plain = (text: string) => text.replace(/[āēīōūĀĒĪŌŪ]/g, (letter) => letter.normalize('NFD')[0]!);
const small = demoProgramme(60, 11).map((row) => ({
  ...row,
  section: plain(row.section),
  title: plain(row.title),
  studio: plain(row.studio),
  dancers: row.dancers.map(plain),
}));
small[0] = { ...small[0]!, dancers: ['Zoë Müller', 'Renée Clarke'], title: '=HYPERLINK("x")' };
await writeFile(new URL('programme-win1252.csv', dir), iconv.encode(programmeCsv(small), 'win1252'));
