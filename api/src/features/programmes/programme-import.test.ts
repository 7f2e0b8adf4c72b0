import { readFile } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { findEntry } from '@app/shared/programme';
import { programmePreviewSchema, type ProgrammeMapping } from '@app/shared/schemas';
import { demoProgramme, programmeCsv, type ProgrammeRow } from '../../../../scripts/seed/programme.ts';
import { createPurchase, createShowcase, createVideo } from '../../../../test/support/factories.ts';
import { useTestWorld } from '../../../../test/support/world.ts';

const { env, api, agent } = useTestWorld({ admin: true });
const origin = 'http://localhost:3000';
const fixture = (name: string) => readFile(new URL(`../../../../test/fixtures/${name}`, import.meta.url));

const send = (path: string, body: Buffer | string, query: Record<string, string> = {}) =>
  agent
    .post(`${path}?${new URLSearchParams(query).toString()}`)
    .set('Origin', origin)
    .set('Content-Type', 'application/octet-stream')
    .send(Buffer.from(body));

const preview = (showcaseId: string, body: Buffer | string, query: Record<string, string> = {}) =>
  send(`/api/admin/showcases/${showcaseId}/programme/preview`, body, query);
const importFile = (showcaseId: string, body: Buffer | string, query: Record<string, string> = {}) =>
  send(`/api/admin/showcases/${showcaseId}/programme/import`, body, query);

async function entryCount(showcaseId: string) {
  const { rows } = await env.database.db.execute<{ count: number }>(
    sql`select count(*)::int as count from programme_entries where showcase_id = ${showcaseId}`,
  );
  return rows[0]!.count;
}

describe('programme import', () => {
  it('previews a 300-row programme without writing, flags its two bad rows, then imports it fixed', async () => {
    const showcase = await createShowcase(env.database.db);
    const file = await fixture('programme-300.csv');
    const answer = programmePreviewSchema.parse((await preview(showcase.id, file).expect(200)).body);
    expect(answer.headers).toEqual(['Item No', 'Section', 'Routine', 'Dancers', 'Studio']);
    expect(answer.mapping).toEqual({ entryNumber: 0, section: 1, title: 2, dancers: 3, studio: 4 });
    expect(answer.problems).toEqual([
      { row: 202, message: 'Entry 120 appears twice (also on row 121)' },
      { row: 251, message: 'Entry 250 names no dancer' },
    ]);
    expect(answer.entries[0]).toMatchObject({ row: 2, entryNumber: '1' });
    expect(answer.entries.find((entry) => entry.entryNumber === '47')?.dancers).toBeUndefined();
    expect(await entryCount(showcase.id)).toBe(0);

    // A file with a bad row imports nothing.
    const refused = await importFile(showcase.id, file).expect(400);
    expect(refused.body.message).toMatch(/^2 rows cannot be imported; nothing was saved/);
    expect(await entryCount(showcase.id)).toBe(0);

    const lines = file.toString('utf8').split('\r\n');
    lines[201] = lines[201]!.replace(/^120,/, '201,');
    lines[250] = lines[250]!.replace(',,', ',Ruby Clarke,');
    const started = performance.now();
    const imported = programmePreviewSchema.parse(
      (await importFile(showcase.id, lines.join('\r\n')).expect(200)).body,
    );
    console.info(`300-row programme imported in ${Math.round(performance.now() - started)} ms`);
    expect(imported).toMatchObject({ imported: true, problems: [] });
    expect(imported.counts).toMatchObject({ entries: 300, added: 300, changed: 0 });
    expect(await entryCount(showcase.id)).toBe(300);

    const entry = await findEntry(env.database.db, showcase.id, '#47');
    expect(entry).toMatchObject({
      entryNumber: '47',
      title: 'Firefly',
      section: 'Junior Solo Jazz 10 & Under',
    });
    expect(await findEntry(env.database.db, showcase.id, '4')).toMatchObject({ entryNumber: '4' });
    expect(await findEntry(env.database.db, showcase.id, '4711')).toBeUndefined();
    const { rows } = await env.database.db.execute<{ name: string; routines: number }>(sql`
      select d.name, count(*)::int as routines from programme_dancers d
      join programme_entry_dancers ed on ed.dancer_id = d.id
      where d.showcase_id = ${showcase.id} and d.search_key = 'maia ngata' group by d.name`);
    expect(rows).toEqual([{ name: 'Māia Ngata', routines: 4 }]);

    // The same header shape next time: the mapping is the one she confirmed.
    const again = programmePreviewSchema.parse(
      (await preview(showcase.id, lines.join('\r\n')).expect(200)).body,
    );
    expect(again).toMatchObject({ remembered: true, counts: { added: 0, changed: 0, unchanged: 300 } });
  });

  it('reads an Excel CSV in Windows-1252, keeps formula-like cells as text, and merges one-row-per-dancer rows', async () => {
    const showcase = await createShowcase(env.database.db);
    const file = await fixture('programme-win1252.csv');
    expect(file.includes(Buffer.from('Zoë'))).toBe(false); // really not UTF-8
    const answer = programmePreviewSchema.parse((await preview(showcase.id, file).expect(200)).body);
    expect(answer.problems).toEqual([]);
    expect(answer.entries[0]).toMatchObject({
      entryNumber: '1',
      title: '=HYPERLINK("x")',
      dancers: ['Zoë Müller', 'Renée Clarke'],
    });

    const perDancer = [
      'Entry,Dancer,School,Category',
      '#5,Aroha Ngata,Studio 42,Senior Troupe Jazz',
      '5,Mia Chen,,',
      '5,aroha ngata,,',
      'Item 6,Tūī Parata,Studio 42,Senior Solo Tap',
      '',
      '007,Renée Clarke,Studio 42,Senior Solo Tap',
    ].join('\n');
    const mapping: ProgrammeMapping = { entryNumber: 0, dancers: 1, studio: 2, section: 3 };
    const rows = programmePreviewSchema.parse(
      (await importFile(showcase.id, perDancer, { mapping: JSON.stringify(mapping) }).expect(200)).body,
    );
    expect(rows.entries).toEqual([
      {
        row: 2,
        entryNumber: '5',
        section: 'Senior Troupe Jazz',
        title: '',
        studio: 'Studio 42',
        dancers: ['Aroha Ngata', 'Mia Chen'],
      },
      {
        row: 5,
        entryNumber: '6',
        section: 'Senior Solo Tap',
        title: '',
        studio: 'Studio 42',
        dancers: ['Tūī Parata'],
      },
      {
        row: 7,
        entryNumber: '7',
        section: 'Senior Solo Tap',
        title: '',
        studio: 'Studio 42',
        dancers: ['Renée Clarke'],
      },
    ]);
  });

  it('re-imports a corrected programme: changes 10, adds 5, lists the 3 vanished with sales and removes the rest', async () => {
    const { db } = env.database;
    const showcase = await createShowcase(db);
    const first = demoProgramme(40, 3);
    await importFile(showcase.id, programmeCsv(first)).expect(200);
    // Entries 1-3 have sold videos; 4 has a video not sold yet; 5-6 have nothing.
    for (const number of ['1', '2', '3', '4']) {
      const entry = (await findEntry(db, showcase.id, number))!;
      const video = await createVideo(db, {
        showcaseId: showcase.id,
        priceCents: 1500,
        entryId: entry.id,
        ownText: false,
      });
      if (number !== '4') await createPurchase(db, { videoId: video.id, status: 'paid' });
    }
    const corrected: ProgrammeRow[] = first
      .filter((row) => !['1', '2', '3', '5', '6'].includes(row.entryNumber))
      .map((row, at) => (at < 10 ? { ...row, title: `${row.title} (corrected)` } : row));
    for (let number = 41; number <= 45; number++)
      corrected.push({
        entryNumber: String(number),
        section: 'Open Solo Jazz',
        title: 'Late entry',
        dancers: ['Kaia Lee'],
        studio: 'Studio 42',
      });

    const before = programmePreviewSchema.parse(
      (await preview(showcase.id, programmeCsv(corrected)).expect(200)).body,
    );
    expect(before.counts).toMatchObject({ added: 5, changed: 10 });
    const after = programmePreviewSchema.parse(
      (await importFile(showcase.id, programmeCsv(corrected)).expect(200)).body,
    );
    expect(after.counts).toMatchObject({ entries: 40, added: 5, changed: 10, unchanged: 25 });
    expect(after.vanished.map((entry) => [entry.entryNumber, entry.sold])).toEqual([
      ['1', true],
      ['2', true],
      ['3', true],
    ]);
    expect(after.removed).toBe(2);
    expect(await entryCount(showcase.id)).toBe(43);
    expect(await findEntry(db, showcase.id, '5')).toBeUndefined();
    // A video linked to an entry takes the entry's new text, unless its owner wrote her own.
    const four = (await findEntry(db, showcase.id, '4'))!;
    const { rows } = await db.execute<{ title: string }>(
      sql`select title from videos where entry_id = ${four.id}`,
    );
    expect(rows[0]!.title).toBe(`Item 4: ${four.title}`);
    expect(four.title).toMatch(/\(corrected\)$/);
  });

  it('reads the sheet the owner picks from a workbook and refuses a zip bomb, a 20 MB file and visitors', async () => {
    const showcase = await createShowcase(env.database.db);
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Cover').addRow(['Southern Champs 2027']);
    const sheet = workbook.addWorksheet('Programme');
    sheet.addRow(['Item', 'Routine', 'Dancers']);
    sheet.addRow([47, 'Firefly', 'Māia Ngata']);
    sheet.addRow(['47b', 'Firefly (re-run)', 'Māia Ngata']);
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());

    const first = programmePreviewSchema.parse((await preview(showcase.id, xlsx).expect(200)).body);
    expect(first).toMatchObject({ sheets: ['Cover', 'Programme'], sheet: 'Cover', mapping: null });
    const picked = programmePreviewSchema.parse(
      (await preview(showcase.id, xlsx, { sheet: 'Programme' }).expect(200)).body,
    );
    expect(picked.entries.map((entry) => [entry.entryNumber, entry.title, entry.dancers])).toEqual([
      ['47', 'Firefly', ['Māia Ngata']],
      ['47b', 'Firefly (re-run)', ['Māia Ngata']],
    ]);

    // The same workbook claiming that its parts unpack to 4 GB each.
    const bomb = Buffer.from(xlsx);
    for (let at = 0; at < bomb.length - 4; at++)
      if (bomb.readUInt32LE(at) === 0x02014b50) bomb.writeUInt32LE(0xfffffff0, at + 24);
    const refused = await preview(showcase.id, bomb).expect(400);
    expect(refused.body.message).toMatch(/unpacks to more than 60 MB/);

    const huge = await preview(showcase.id, Buffer.alloc(20 * 1024 * 1024, 'a')).expect(400);
    expect(huge.body.message).toBe('A programme file may be at most 5 MB.');
    await preview(showcase.id, '').expect(400);
    await preview(showcase.id, 'Item,Dancers\n1,Aroha', { mapping: '{"entryNumber":9}' }).expect(400);
    await preview(showcase.id, 'Item,Dancers\n1,Aroha', { mapping: 'not json' }).expect(400);

    await request(api.app)
      .post(`/api/admin/showcases/${showcase.id}/programme/import`)
      .set('Origin', origin)
      .send('Item\n1')
      .expect(401);
  });
});
