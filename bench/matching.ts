// Bench: matching a competition's 400 files to its 400-entry programme (decision 033), as the review
// table does in the owner's browser each time she changes something. Target: 1 s for the lot.
//   npm run bench -- matching
import { performance } from 'node:perf_hooks';
import { matchFiles, reviewMatches, type MatchEntry, type MatchFile } from '@app/shared/upload-matching';
import { printTable, verdict } from './lib.ts';

const COUNT = 400;
const ROUNDS = 20;
const entries: MatchEntry[] = Array.from({ length: COUNT }, (_, index) => ({
  id: `entry-${index + 1}`,
  entryNumber: index % 25 === 0 ? `${index + 1}a` : `${index + 1}`,
  entrySort: index + 1,
}));
// The names owners give and cameras give, mixed: "047 Aroha solo.mp4", "Item 48 - Kowhai.mov", "C0049.MP4".
const files: MatchFile[] = Array.from({ length: COUNT }, (_, index) => {
  const number = index + 1;
  const name =
    index % 3 === 0
      ? `${String(number).padStart(3, '0')} Aroha solo.mp4`
      : index % 3 === 1
        ? `Item ${number} - Routine name.mov`
        : `C${String(1000 + number).padStart(4, '0')}.MP4`;
  return { key: `file-${number}`, name, capturedAt: 1_790_000_000_000 + number * 240_000 };
});

const times: number[] = [];
let matched = 0;
for (let round = 0; round < ROUNDS; round++) {
  const start = performance.now();
  const matches = matchFiles(files, entries, { firstEntryId: 'entry-3', notFilmed: new Set(['entry-200']) });
  const review = reviewMatches(
    files.map((file) => ({ key: file.key, entryId: matches.get(file.key)?.entryId ?? null })),
    entries,
  );
  times.push(performance.now() - start);
  matched = review.matched;
}
times.sort((a, b) => a - b);
const worst = times.at(-1)!;
printTable(`Matching ${COUNT} file names to a ${COUNT}-entry programme (${ROUNDS} rounds)`, [
  {
    'median ms': Number(times[Math.floor(ROUNDS / 2)]!.toFixed(2)),
    'worst ms': Number(worst.toFixed(2)),
    matched,
    target: '<= 1000 ms',
    verdict: verdict(worst <= 1000),
  },
]);
