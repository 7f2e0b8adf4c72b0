import { lazy, Suspense, type ReactNode } from 'react';
import { Link } from 'wouter';
import { formatEventDate, formatMoney } from '@app/shared/format';
import type { SeasonView } from '@app/shared/schemas';
import { Card } from '../../components/ui/card.tsx';
import { Table, TableCell, TableRow } from '../../components/ui/table.tsx';
import { AdminSection } from '../admin-shell/admin-section.tsx';
import { funnelSteps, percent, salesSummary } from './figures.ts';
import { entriesPath } from '../admin-programmes/entries-path.ts';

// The season view's panels (decision 034). Every figure a chart draws is also in a table or a sentence.

const SalesChart = lazy(() =>
  import('./season-charts.tsx').then((module) => ({ default: module.SalesChart })),
);
const FunnelChart = lazy(() =>
  import('./season-charts.tsx').then((module) => ({ default: module.FunnelChart })),
);

function Figure({ label, value, note }: { label: string; value: ReactNode; note?: ReactNode }) {
  return (
    <div className="rounded-xl bg-stage-900/70 px-4 py-3">
      <dt className="text-sm text-zinc-400">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold text-white">{value}</dd>
      {note && <dd className="mt-1 text-xs text-zinc-400">{note}</dd>}
    </div>
  );
}

function Panel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    // min-w-0: a wide table scrolls inside its panel instead of widening the page's grid.
    <Card className="min-w-0 p-4 sm:p-5">
      <AdminSection id={id} title={title}>
        {children}
      </AdminSection>
    </Card>
  );
}

/** A chart while it loads: its place kept, so the page does not jump. */
const chartPlaceholder = (height: string) => <div className={`${height} w-full`} aria-hidden="true" />;

export function EntriesPanel({ view }: { view: SeasonView }) {
  const { entries, videos, showcase } = view;
  return (
    <Panel id="season-entries" title="Entries and videos">
      <dl className="mt-4 grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Figure label="Entries" value={entries.total} />
        <Figure label="With a video" value={entries.withVideo} />
        <Figure
          label="Without a video"
          value={entries.withoutVideo}
          note={entries.total === 0 ? 'No programme imported' : undefined}
        />
        <Figure label="Not filmed" value={entries.notFilmed} note="Marked so in a bulk upload" />
        <Figure label="Videos" value={videos.total} note={`${videos.withoutEntry} not linked to an entry`} />
        <Figure label="Ready" value={videos.ready} />
        <Figure label="Processing" value={videos.processing} />
        <Figure label="Failed" value={videos.failed} />
      </dl>
      {videos.failedVideos.length > 0 && (
        <div className="mt-4">
          <h3 className="font-sans text-sm font-semibold text-white">Failed videos</h3>
          <ul className="mt-2 space-y-1 text-sm text-zinc-300">
            {videos.failedVideos.map((video) => (
              <li key={video.id}>
                <span className="font-semibold text-white">{video.title}</span>
                {video.reason ? `: ${video.reason}` : ''}
              </li>
            ))}
          </ul>
          <Link
            href="/admin/videos"
            className="mt-2 inline-block text-sm font-semibold text-spotlight-300 underline"
          >
            Open the videos to process them again or replace their files
          </Link>
        </div>
      )}
      <Link
        href={entriesPath(showcase.id)}
        className="mt-4 inline-block text-sm font-semibold text-spotlight-300 underline"
      >
        Open this programme&apos;s entries
      </Link>
    </Panel>
  );
}

export function SalesPanel({ view }: { view: SeasonView }) {
  const { sales, salesByDay } = view;
  const soldDays = salesByDay.filter((day) => day.purchases > 0);
  return (
    <Panel id="season-sales" title="Sales">
      <dl className="mt-4 grid grid-cols-2 gap-3 lg:grid-cols-3">
        <Figure label="Revenue" value={formatMoney(sales.revenueCents)} note="Refunds left out" />
        <Figure label="Purchases" value={sales.purchases} />
        <Figure label="Videos sold" value={sales.videosSold} />
      </dl>
      <figure className="mt-5">
        <figcaption className="text-sm text-zinc-300">
          <span className="font-semibold text-white">Revenue per day.</span> {salesSummary(salesByDay)}
        </figcaption>
        {soldDays.length > 0 && (
          <Suspense fallback={chartPlaceholder('h-56 sm:h-64')}>
            <div className="mt-3">
              <SalesChart days={salesByDay} />
            </div>
          </Suspense>
        )}
      </figure>
      {soldDays.length > 0 && (
        <details className="mt-3">
          <summary className="cursor-pointer text-sm font-semibold text-spotlight-300">
            Sales per day as a table ({soldDays.length} {soldDays.length === 1 ? 'day' : 'days'} with sales)
          </summary>
          <Table
            label="Sales per day"
            className="mt-3"
            columns={[
              { label: 'Day' },
              { label: 'Purchases', align: 'right' },
              { label: 'Revenue', align: 'right' },
            ]}
          >
            {soldDays.map((day) => (
              <TableRow key={day.day}>
                <TableCell>{formatEventDate(day.day)}</TableCell>
                <TableCell className="text-right">{day.purchases}</TableCell>
                <TableCell className="text-right">{formatMoney(day.revenueCents)}</TableCell>
              </TableRow>
            ))}
          </Table>
        </details>
      )}
    </Panel>
  );
}

export function FunnelPanel({ view }: { view: SeasonView }) {
  const steps = funnelSteps(view.funnel);
  return (
    <Panel id="season-funnel" title="From page visits to purchases">
      <p className="mt-1 text-sm text-zinc-400">
        Visits of the routines&apos; pages (each visitor once an hour), checkouts started with one of them,
        and those paid.
      </p>
      {view.funnel.visits + view.funnel.checkouts > 0 && (
        <Suspense fallback={chartPlaceholder('h-44')}>
          <div className="mt-3">
            <FunnelChart funnel={view.funnel} />
          </div>
        </Suspense>
      )}
      <Table
        label="From page visits to purchases"
        className="mt-3"
        columns={[
          { label: 'Step' },
          { label: 'Count', align: 'right' },
          { label: 'Of visits', align: 'right' },
        ]}
      >
        {steps.map((step) => (
          <TableRow key={step.step}>
            <TableCell>{step.step}</TableCell>
            <TableCell className="text-right">{step.count}</TableCell>
            <TableCell className="text-right">{step.share}</TableCell>
          </TableRow>
        ))}
      </Table>
    </Panel>
  );
}

export function TopRoutinesPanel({ view }: { view: SeasonView }) {
  return (
    <Panel id="season-top" title="Top routines">
      {view.topRoutines.length === 0 ? (
        <p className="mt-3 text-zinc-400">No videos in this showcase yet.</p>
      ) : (
        <Table
          label="Top routines"
          className="mt-3"
          tableClassName="min-w-[36rem]"
          columns={[
            { label: 'Entry' },
            { label: 'Routine' },
            { label: 'Visits', align: 'right' },
            { label: 'Sold', align: 'right' },
            { label: 'Revenue', align: 'right' },
            { label: 'Conversion', align: 'right' },
          ]}
        >
          {view.topRoutines.map((routine) => (
            <TableRow key={routine.videoId}>
              <TableCell>{routine.entryNumber ?? '–'}</TableCell>
              <TableCell>{routine.title}</TableCell>
              <TableCell className="text-right">{routine.visits}</TableCell>
              <TableCell className="text-right">{routine.sold}</TableCell>
              <TableCell className="text-right">{formatMoney(routine.revenueCents)}</TableCell>
              <TableCell className="text-right">{percent(routine.sold, routine.visits)}</TableCell>
            </TableRow>
          ))}
        </Table>
      )}
    </Panel>
  );
}

export function SearchMissesPanel({ view }: { view: SeasonView }) {
  const { showcase, searchMisses, searchMissDays } = view;
  return (
    <Panel id="season-searches" title="Searches that found nothing">
      <p className="mt-1 text-sm text-zinc-400">
        What visitors typed, on this showcase&apos;s page or across the site since it was added, that found no
        video and nothing in the programmes as typed: most often a misspelt name or a mislabelled entry. Only
        the words and a count per day are kept, for {searchMissDays} days; they may name a child, so they are
        shown here only.
      </p>
      {searchMisses.length === 0 ? (
        <p className="mt-3 text-zinc-400">No searches came up empty.</p>
      ) : (
        <Table
          label="Searches that found nothing"
          className="mt-3"
          tableClassName="min-w-[40rem]"
          columns={[
            { label: 'Search' },
            { label: 'Times', align: 'right' },
            { label: 'Where' },
            { label: 'Last' },
            { label: 'Fix' },
          ]}
        >
          {searchMisses.map((miss) => (
            <TableRow key={miss.query}>
              <TableCell className="font-semibold text-white">{miss.query}</TableCell>
              <TableCell className="text-right">{miss.count}</TableCell>
              <TableCell>
                {[
                  miss.library > 0 &&
                    `${miss.withinShowcase ? 'Library and this showcase' : 'Library'}: ${miss.library}`,
                  miss.programme > 0 && `Find your dancer: ${miss.programme}`,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </TableCell>
              <TableCell>{formatEventDate(miss.lastDay)}</TableCell>
              <TableCell>
                {miss.suggestion ? (
                  <Link
                    href={entriesPath(showcase.id, miss.suggestion.search)}
                    className="font-semibold text-spotlight-300 underline"
                  >
                    Entry {miss.suggestion.entryNumber}: {miss.suggestion.label}
                    <span className="sr-only"> (fix the entry for “{miss.query}”)</span>
                  </Link>
                ) : (
                  <Link
                    href={entriesPath(showcase.id, miss.query)}
                    className="font-semibold text-spotlight-300 underline"
                  >
                    Look in the programme<span className="sr-only"> for “{miss.query}”</span>
                  </Link>
                )}
              </TableCell>
            </TableRow>
          ))}
        </Table>
      )}
    </Panel>
  );
}
