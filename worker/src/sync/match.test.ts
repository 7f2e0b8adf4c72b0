import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isHttpLink, normalizeName, planSync } from './match.ts';

describe('normalizeName', () => {
  it('ignores case, spacing, punctuation and accents', () => {
    expect(normalizeName('  Canterbury  Dance-Festival! ')).toBe(normalizeName('canterbury dance festival'));
    expect(normalizeName('Ōtautahi Jazz & Tap')).toBe(normalizeName('otautahi jazz tap'));
  });

  it('is idempotent', () => {
    fc.assert(fc.property(fc.string(), (name) => normalizeName(normalizeName(name)) === normalizeName(name)));
  });
});

describe('planSync', () => {
  const events = [
    { id: 1, title: 'Canterbury Dance Festival', jotformUrl: null },
    { id: 2, title: 'Wellington Jazz & Tap', jotformUrl: 'https://form.example/wellington' },
    { id: 3, title: 'Spring Recital', jotformUrl: null },
    { id: 4, title: 'spring recital', jotformUrl: null },
  ];

  it('updates changed links only and reports what it could not use', () => {
    const { updates, result } = planSync(
      [
        { row: 2, name: 'canterbury dance festival', link: 'https://form.example/canterbury' },
        { row: 3, name: 'Wellington Jazz and Tap', link: 'https://form.example/x' },
        { row: 4, name: 'Wellington Jazz & Tap', link: 'https://form.example/wellington' },
        { row: 5, name: 'Spring Recital', link: 'https://form.example/spring' },
        { row: 6, name: 'Canterbury Dance Festival', link: 'javascript:alert(1)' },
        { row: 7, name: '', link: '' },
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
      ],
      ambiguousRows: [{ row: 5, name: 'Spring Recital', eventIds: [3, 4] }],
    });
  });

  it('never writes a link that is not http(s)', () => {
    fc.assert(
      fc.property(fc.string(), (link) => {
        const { updates } = planSync([{ row: 2, name: 'Canterbury Dance Festival', link }], events);
        return updates.every((update) => isHttpLink(update.link));
      }),
    );
  });
});
