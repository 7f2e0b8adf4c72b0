import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from 'wouter';
import type { ProgrammeSearch } from '@app/shared/schemas';
import { isApiError } from '../../lib/api.ts';
import { RoutineList } from './routine-list.tsx';

/**
 * What the library's search box finds in the competitions' programmes (docs/decisions/032): dancers and
 * studios (each leading to their page) and routines by entry number or section, by competition, newest
 * first. Asked in the browser only, after the box has settled (the search is in the address), by the
 * library page, whose count reads the same answer (`useProgrammeSearch`).
 */
export function ProgrammeResults({ result }: { result: UseQueryResult<ProgrammeSearch> }) {
  if (isApiError(result.error, 'rate_limited'))
    return (
      <p role="status" className="mt-8 text-amber-200">
        {result.error.serverMessage ?? 'Too many name searches for now.'} Entry numbers (like #47) still work.
      </p>
    );
  const groups = result.data?.groups ?? [];
  if (groups.length === 0) return null;
  return (
    <section aria-labelledby="programme-results" className="mt-10">
      <h2 id="programme-results" className="text-2xl font-bold text-white">
        In the programmes
      </h2>
      {groups.map((group) => (
        <div key={group.showcase.id} className="mt-6">
          <h3 className="text-xl font-semibold text-white">
            <Link href={`/videos/${encodeURIComponent(group.showcase.slug)}`} className="hover:underline">
              {group.showcase.name}
            </Link>
          </h3>
          {(group.dancers.length > 0 || group.studios.length > 0) && (
            <ul className="mt-3 flex flex-wrap gap-3">
              {group.dancers.map((dancer) => (
                <li key={dancer.id}>
                  <Link
                    href={`/dancers/${encodeURIComponent(dancer.id)}`}
                    className="inline-block rounded-xl border border-spotlight-400/40 bg-spotlight-400/10 px-4 py-2 font-semibold text-white hover:bg-spotlight-400/20"
                  >
                    {dancer.name ?? 'This dancer'}
                    <span className="ml-2 text-sm font-normal text-zinc-300">
                      {dancer.routineCount} {dancer.routineCount === 1 ? 'routine' : 'routines'}
                    </span>
                  </Link>
                </li>
              ))}
              {group.studios.map((studio) => (
                <li key={studio.id}>
                  <Link
                    href={`/studios/${encodeURIComponent(studio.id)}`}
                    className="inline-block rounded-xl border border-white/15 bg-stage-800/70 px-4 py-2 font-semibold text-white hover:bg-stage-700"
                  >
                    {studio.name}
                    <span className="ml-2 text-sm font-normal text-zinc-300">
                      {studio.routineCount} {studio.routineCount === 1 ? 'routine' : 'routines'}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
          {group.routines.length > 0 && <RoutineList routines={group.routines} headingLevel={3} />}
        </div>
      ))}
    </section>
  );
}
