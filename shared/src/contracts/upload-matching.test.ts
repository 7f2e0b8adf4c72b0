import { describe, expect, it } from 'vitest';
import { matchFiles, readFileName, reviewMatches, type MatchEntry } from './upload-matching.ts';

const entries: MatchEntry[] = [
  { id: 'e12', entryNumber: '12', entrySort: 12 },
  { id: 'e47', entryNumber: '47', entrySort: 47 },
  { id: 'e47a', entryNumber: '47a', entrySort: 47 },
  { id: 'e48', entryNumber: '48', entrySort: 48 },
  { id: 'e49', entryNumber: '49', entrySort: 49 },
  { id: 'e50', entryNumber: '50', entrySort: 50 },
];
const file = (name: string, capturedAt: number | null = null) => ({ key: name, name, capturedAt });

describe('reading a file name', () => {
  it('finds entry numbers, prefixed ones first, and tells camera counters apart', () => {
    expect(readFileName('047.mp4')).toEqual({ kind: 'numbers', numbers: [{ number: 47, suffix: '' }] });
    expect(readFileName('Item 47 - Aroha.mov')).toMatchObject({ numbers: [{ number: 47, suffix: '' }] });
    expect(readFileName('47b.mp4')).toMatchObject({ numbers: [{ number: 47, suffix: 'b' }] });
    expect(readFileName('2026 Nationals #12.mp4')).toMatchObject({
      numbers: [{ number: 12 }, { number: 2026 }],
    });
    for (const camera of ['C0047.MP4', 'MVI_1234.MOV', 'DSC01234.mp4', 'GX010047.MP4', 'IMG_1234_2.mov'])
      expect(readFileName(camera)).toEqual({ kind: 'camera' });
    expect(readFileName('Aroha solo.mp4')).toEqual({ kind: 'none' });
  });
});

describe('matching files to entries', () => {
  it('matches by number, a letter to its own entry or as a second angle', () => {
    const matches = matchFiles(
      [file('047 Aroha.mp4'), file('47a.mp4'), file('48b.mp4'), file('512.mp4'), file('Aroha.mp4')],
      entries,
    );
    expect(matches.get('047 Aroha.mp4')).toEqual({ entryId: 'e47', matchedBy: 'number', reason: null });
    expect(matches.get('47a.mp4')?.entryId).toBe('e47a');
    expect(matches.get('48b.mp4')?.entryId).toBe('e48');
    expect(matches.get('512.mp4')).toMatchObject({ entryId: null, reason: 'The programme has no entry 512' });
    expect(matches.get('Aroha.mp4')).toMatchObject({ entryId: null, reason: 'No entry number in the name' });
  });

  it('matches camera names by capture time from the first entry, skipping entries not filmed', () => {
    const shot = [
      file('C0103.MP4', 3_000),
      file('C0101.MP4', 1_000),
      file('C0102.MP4', 2_000),
      file('C0104.MP4', 4_000),
    ];
    expect(matchFiles(shot, entries).get('C0101.MP4')?.reason).toMatch(/pick the entry of the first file/);
    const matches = matchFiles(shot, entries, { firstEntryId: 'e47a', notFilmed: new Set(['e49']) });
    expect([
      ...['C0101.MP4', 'C0102.MP4', 'C0103.MP4', 'C0104.MP4'].map((name) => matches.get(name)?.entryId),
    ]).toEqual(['e47a', 'e48', 'e50', null]);
    expect(matches.get('C0104.MP4')?.reason).toMatch(/More files than filmed entries/);
  });

  it('reviews matched, unmatched, two files for one entry and entries without a file', () => {
    const review = reviewMatches(
      [
        { key: 'a', entryId: 'e47' },
        { key: 'b', entryId: 'e47' },
        { key: 'c', entryId: 'e12' },
        { key: 'd', entryId: null },
      ],
      entries,
      new Set(['e50']),
    );
    expect(review).toEqual({
      matched: 3,
      unmatched: 1,
      shared: [{ entryId: 'e47', fileKeys: ['a', 'b'] }],
      withoutFile: ['e47a', 'e48', 'e49'],
    });
  });
});
