import { Lightbulb } from 'lucide-react';

const tips = [
  'Events without a booking link show a disabled “Coming Soon” button on the site.',
  'Lower showcase order numbers appear first in the video library.',
  'A price of 0 makes a video free; protected videos need their password to watch or buy.',
  'Sync runs on its own schedule too; the Sync screen shows rows the spreadsheet could not match.',
];

/** Reminders of how the site behaves, below the cards. */
export function QuickTips() {
  return (
    <section
      aria-labelledby="tips-title"
      className="mt-10 rounded-2xl border border-spotlight-400/30 bg-spotlight-400/5 p-6"
    >
      <h2
        id="tips-title"
        className="flex items-center gap-2 font-sans text-lg font-semibold text-spotlight-300"
      >
        <Lightbulb className="size-5" aria-hidden /> Admin Quick Tips
      </h2>
      <ul className="mt-3 list-disc space-y-1 pl-5 text-sm text-zinc-300">
        {tips.map((tip) => (
          <li key={tip}>{tip}</li>
        ))}
      </ul>
    </section>
  );
}
