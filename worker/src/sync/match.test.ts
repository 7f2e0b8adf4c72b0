import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isHttpLink, normalizeName, planSync, type EventName, type SheetRow } from './match.ts';

describe('normalizeName', () => {
  it('ignores case, spacing, punctuation and accents', () => {
    expect(normalizeName('  Canterbury  Dance-Festival! ')).toBe(normalizeName('canterbury dance festival'));
    expect(normalizeName('Ōtautahi Jazz & Tap')).toBe(normalizeName('otautahi jazz tap'));
    expect(normalizeName('St. John\u00a0Cup\t(2027)')).toBe('st john cup 2027');
    expect(normalizeName('Jazz & Tap')).not.toBe(normalizeName('Jazz and Tap'));
    expect(normalizeName('Grade 1')).not.toBe(normalizeName('Grade 12'));
  });

  it('is idempotent', () => {
    fc.assert(fc.property(fc.string(), (name) => normalizeName(normalizeName(name)) === normalizeName(name)));
  });

  it('does not depend on case, or on the spaces and punctuation between words', () => {
    const word = fc.stringMatching(/^[A-Za-z0-9]{1,8}$/);
    const gap = fc.stringMatching(/^[ \t.,&!()'"-]{1,3}$/);
    fc.assert(
      fc.property(fc.array(fc.tuple(word, gap), { minLength: 1, maxLength: 5 }), gap, (parts, edge) => {
        const plain = parts.map(([w]) => w).join(' ');
        const noisy = edge + parts.map(([w, g]) => w.toUpperCase() + g).join('') + edge;
        return normalizeName(noisy) === normalizeName(plain);
      }),
    );
  });
});

describe('isHttpLink', () => {
  it('accepts http(s) links with a host name only', () => {
    expect(isHttpLink('https://form.jotform.com/123')).toBe(true);
    expect(isHttpLink('HTTP://Form.Example/x?a=1')).toBe(true);
    for (const link of [
      'javascript:alert(1)',
      'ftp://form.example/x',
      'form.example/x',
      'https://',
      'https://localhost/x',
      'mailto:a@b.c',
      `https://form.example/${'x'.repeat(2_000)}`,
    ]) {
      expect(isHttpLink(link), link).toBe(false);
    }
  });
});

describe('planSync', () => {
  const events: EventName[] = [
    { id: 1, title: 'Canterbury Dance Festival', jotformUrl: null },
    { id: 2, title: 'Wellington Jazz & Tap', jotformUrl: 'https://form.example/wellington' },
    { id: 3, title: 'Spring Recital', jotformUrl: null },
    { id: 4, title: 'spring recital', jotformUrl: null },
    { id: 5, title: 'Auckland Cup', jotformUrl: null },
  ];

  it('updates changed links only and reports what it could not use', () => {
    const { updates, result } = planSync(
      [
        { row: 2, name: 'canterbury dance festival', link: ' https://form.example/canterbury ' },
        { row: 3, name: 'Wellington Jazz and Tap', link: 'https://form.example/x' },
        { row: 4, name: 'Wellington Jazz & Tap', link: 'https://form.example/wellington' },
        { row: 5, name: 'Spring Recital', link: 'https://form.example/spring' },
        { row: 6, name: 'Canterbury Dance Festival', link: 'javascript:alert(1)' },
        { row: 7, name: '', link: '' },
        { row: 8, name: '  ', link: 'https://form.example/nameless' },
        { row: 9, name: 'Auckland Cup', link: '' },
      ],
      events,
    );
    expect(updates).toEqual([{ id: 1, link: 'https://form.example/canterbury' }]);
    expect(result).toEqual({
      updatedCount: 1,
      unchanged: 1,
      unmatchedRows: [{ row: 3, name: 'Wellington Jazz and Tap' }],
      invalidRows: [
        {
          row: 6,
          name: 'Canterbury Dance Festival',
          link: 'javascript:alert(1)',
          reason: 'not an http(s) link',
        },
        { row: 8, name: '  ', link: 'https://form.example/nameless', reason: 'no competition name' },
        { row: 9, name: 'Auckland Cup', link: '', reason: 'no link' },
      ],
      ambiguousRows: [{ row: 5, name: 'Spring Recital', eventIds: [3, 4] }],
    });
  });

  it('counts an event once when several rows give it the same link', () => {
    const { updates, result } = planSync(
      [
        { row: 2, name: 'Auckland Cup', link: 'https://form.example/auckland' },
        { row: 3, name: 'AUCKLAND CUP', link: 'https://form.example/auckland' },
        { row: 4, name: 'Wellington Jazz & Tap', link: 'https://form.example/wellington' },
        { row: 5, name: 'Wellington Jazz Tap', link: 'https://form.example/wellington' },
      ],
      events,
    );
    expect(updates).toEqual([{ id: 5, link: 'https://form.example/auckland' }]);
    expect(result).toMatchObject({ updatedCount: 1, unchanged: 1, invalidRows: [] });
  });

  it('does not guess between rows giving one event different links', () => {
    const { updates, result } = planSync(
      [
        { row: 2, name: 'Auckland Cup', link: 'https://form.example/a' },
        { row: 3, name: 'Canterbury Dance Festival', link: 'https://form.example/canterbury' },
        { row: 4, name: 'auckland cup', link: 'https://form.example/b' },
      ],
      events,
    );
    expect(updates).toEqual([{ id: 1, link: 'https://form.example/canterbury' }]);
    expect(result.invalidRows).toEqual([
      {
        row: 2,
        name: 'Auckland Cup',
        link: 'https://form.example/a',
        reason: 'the same event gets a different link in row 4',
      },
      {
        row: 4,
        name: 'auckland cup',
        link: 'https://form.example/b',
        reason: 'the same event gets a different link in row 2',
      },
    ]);
  });

  it('handles an empty sheet and no events', () => {
    const empty = { updatedCount: 0, unchanged: 0, unmatchedRows: [], invalidRows: [], ambiguousRows: [] };
    expect(planSync([], events)).toEqual({ updates: [], result: empty });
    expect(planSync([{ row: 2, name: 'Auckland Cup', link: 'https://form.example/a' }], []).result).toEqual({
      ...empty,
      unmatchedRows: [{ row: 2, name: 'Auckland Cup' }],
    });
  });

  const titles = ['Auckland Cup', 'Canterbury Dance Festival', 'Spring Recital', 'Nelson Champs'];
  const arbitraryEvents = fc
    .array(
      fc.record({
        title: fc.constantFrom(...titles, 'spring recital'),
        jotformUrl: fc.option(fc.constantFrom('https://form.example/1', 'https://form.example/2')),
      }),
      { maxLength: 6 },
    )
    .map((list) => list.map((event, index) => ({ id: index + 1, ...event })));
  const arbitraryRows = fc
    .array(
      fc.record({
        name: fc.oneof(fc.constantFrom(...titles, ' AUCKLAND  cup!', ''), fc.string({ maxLength: 12 })),
        link: fc.oneof(
          fc.constantFrom('https://form.example/1', 'https://form.example/2', 'https://form.example/3', ''),
          fc.string({ maxLength: 12 }),
        ),
      }),
      { maxLength: 12 },
    )
    .map((list): SheetRow[] => list.map((row, index) => ({ row: index + 2, ...row })));

  it('writes only http(s) links, to distinct events, each a real change', () => {
    fc.assert(
      fc.property(arbitraryRows, arbitraryEvents, (rows, eventList) => {
        const { updates, result } = planSync(rows, eventList);
        const ids = updates.map((update) => update.id);
        expect(new Set(ids).size).toBe(ids.length);
        expect(result.updatedCount).toBe(updates.length);
        for (const update of updates) {
          expect(isHttpLink(update.link)).toBe(true);
          expect(eventList.find((event) => event.id === update.id)!.jotformUrl).not.toBe(update.link);
        }
      }),
    );
  });

  it('reports each row at most once, and a second run changes nothing', () => {
    fc.assert(
      fc.property(arbitraryRows, arbitraryEvents, (rows, eventList) => {
        const first = planSync(rows, eventList);
        const reported = [
          ...first.result.unmatchedRows,
          ...first.result.invalidRows,
          ...first.result.ambiguousRows,
        ].map((entry) => entry.row);
        expect(new Set(reported).size).toBe(reported.length);

        const after = eventList.map((event) => ({
          ...event,
          jotformUrl: first.updates.find((update) => update.id === event.id)?.link ?? event.jotformUrl,
        }));
        const second = planSync(rows, after);
        expect(second.updates).toEqual([]);
        expect(second.result).toEqual({
          ...first.result,
          updatedCount: 0,
          unchanged: first.result.unchanged + first.result.updatedCount,
        });
      }),
    );
  });
});
