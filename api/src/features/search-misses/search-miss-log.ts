import { sql } from 'drizzle-orm';
import type { Db } from '@app/shared/db';
import type { Logger } from '@app/shared/logger';
import { searchWords } from '../videos/library.service.ts';
import { answersAsTyped } from '../programmes/programme-search.ts';

/**
 * A search that found nothing: the library's, optionally within a showcase. (Rows of the old source
 * `programme` are no longer written; they age out of the table within its 90 days, decision 034.)
 */
export interface SearchMiss {
  source: 'library';
  showcaseId: string | null;
  text: string | undefined;
}

export type LogSearchMiss = (miss: SearchMiss) => void;

/** A logged query is at most this long: the owner reads it, nobody needs more. */
export const MISS_QUERY_MAX = 100;
/** Distinct misses waiting for the next write; a flood of made-up words beyond this is not counted. */
const MAX_WAITING = 1_000;
/**
 * New lines a day at most (about: one group may pass it): a flood of made-up words cannot grow the
 * table without end. Searches already on the day's list are still counted.
 */
export const MAX_MISSES_A_DAY = 5_000;

/**
 * The words a miss is counted under: lower case, without accents, letters and digits only (the library's
 * `searchWords`), so "Aróha  Smith!" and "aroha smith" are one line of the owner's list.
 */
export function missQuery(text: string | undefined): string {
  return searchWords(text).join(' ').slice(0, MISS_QUERY_MAX).trim();
}

interface MissLog {
  log: LogSearchMiss;
  /**
   * Runs a check that may log a miss when it ends, and keeps `written` waiting for it. Beyond
   * MAX_WAITING checks at once (a flood of made-up words) a check is not run, as a miss is not counted.
   */
  track: (check: () => Promise<void>) => void;
  /** Resolves once every miss logged so far has been written (or failed to be). */
  written: () => Promise<void>;
}

const logs = new WeakMap<object, MissLog>();

/**
 * The search-miss log of this database (one per api process): `log(miss)` returns at once. Misses are
 * counted in memory and written as a group, one upsert per distinct query and day, while the answer
 * goes out: the search never waits for the log, and a failed write is a warning, never a failed search.
 * Nothing about the visitor is kept (decision 034): the words, where, the day, a count.
 */
export function searchMissLog(deps: { db: Db; logger: Logger }): LogSearchMiss {
  return missLogOf(deps).log;
}

/** Where a library search whose first page found no video was made. */
export interface LibraryMiss {
  showcaseId: string | null;
  /** Whether competition programmes answer beside it on the library page (not for "More Videos"). */
  programmes: boolean;
  text: string | undefined;
}

/**
 * The library's log of searches that found nothing (decision 034). The library page shows the
 * programmes' answer beside its videos, so a search with no video is logged only when the programmes,
 * read with the same words and showcase after the answer has gone, do not answer it as typed either:
 * a parent who found her daughter by name found something. A misspelt name that only the typo pass
 * found is still logged, with the entry it was probably meant for in the season view.
 */
export function libraryMissLog(deps: { db: Db; logger: Logger }): (miss: LibraryMiss) => void {
  const { log, track } = missLogOf(deps);
  return ({ showcaseId, programmes, text }) => {
    const miss = { source: 'library' as const, showcaseId, text };
    if (!programmes || !missQuery(text)) return log(miss);
    track(() =>
      answersAsTyped(deps.db, text ?? '', showcaseId ?? undefined).then(
        (answered) => {
          if (!answered) log(miss);
        },
        (error: unknown) => {
          // Counted rather than lost: the owner may see a search the programmes did answer.
          deps.logger.warn({ err: error }, 'a search with no video was not checked against the programmes');
          log(miss);
        },
      ),
    );
  };
}

/** For tests and the bench: waits for the misses logged so far to be written (or to fail). */
export function searchMissesWritten(db: Db): Promise<void> {
  return logs.get(db)?.written() ?? Promise.resolve();
}

function missLogOf({ db, logger }: { db: Db; logger: Logger }): MissLog {
  const known = logs.get(db);
  if (known) return known;

  let waiting = new Map<
    string,
    { source: string; showcaseId: string | null; query: string; count: number }
  >();
  let writing: Promise<void> | undefined;
  const checking = new Set<Promise<void>>();

  async function writeAll() {
    // Misses logged in the same turn of the event loop go together.
    await new Promise((resolve) => setImmediate(resolve));
    while (waiting.size > 0) {
      const group = [...waiting.values()];
      waiting = new Map();
      try {
        // The day is New Zealand's, as the owner reads it. A showcase deleted meanwhile drops its rows.
        await db.execute(sql`
          with today as (select (now() at time zone 'Pacific/Auckland')::date as day),
          room as (
            select ${MAX_MISSES_A_DAY}::int - count(*) as lines
            from search_misses, today where search_misses.day = today.day
          )
          insert into search_misses (day, source, showcase_id, query, count)
          select today.day, m.source, m."showcaseId", m.query, m.count
          from today, room, jsonb_to_recordset(${JSON.stringify(group)}::jsonb)
            as m(source text, "showcaseId" text, query text, count int)
          where (m."showcaseId" is null or exists (select 1 from showcases where id = m."showcaseId"))
            and (room.lines > 0 or exists (
              select 1 from search_misses x
              where x.day = today.day and x.source = m.source and x.query = m.query
                and x.showcase_id is not distinct from m."showcaseId"))
          on conflict on constraint search_misses_key
          do update set count = search_misses.count + excluded.count`);
      } catch (error) {
        logger.warn({ err: error, misses: group.length }, 'searches that found nothing were not logged');
      }
    }
  }

  const log: LogSearchMiss = ({ source, showcaseId, text }) => {
    const query = missQuery(text);
    if (!query) return;
    const key = `${source}\u0000${showcaseId ?? ''}\u0000${query}`;
    const entry = waiting.get(key);
    if (entry) entry.count += 1;
    else if (waiting.size < MAX_WAITING) waiting.set(key, { source, showcaseId, query, count: 1 });
    start();
  };
  const start = () => {
    writing ??= writeAll().finally(() => {
      writing = undefined;
      // Logged after the loop's last look: a new round.
      if (waiting.size > 0) start();
    });
  };
  const track = (run: () => Promise<void>) => {
    if (checking.size >= MAX_WAITING) return;
    const check = run()
      .catch((error: unknown) => logger.warn({ err: error }, 'a search that found nothing was not logged'))
      .finally(() => checking.delete(check));
    checking.add(check);
  };
  const written = async () => {
    while (writing || checking.size > 0) {
      await Promise.all(checking);
      await writing;
    }
  };
  const made = { log, track, written };
  logs.set(db, made);
  return made;
}
