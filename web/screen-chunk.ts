import type { Rolldown } from 'vite';

type CodeSplitting = Exclude<NonNullable<Rolldown.OutputOptions['codeSplitting']>, boolean>;
type NameFunction = Extract<
  NonNullable<CodeSplitting['groups']>[number]['name'],
  (...args: never[]) => unknown
>;
type Context = Parameters<NameFunction>[1];

const PERFORMER = /\/web\/src\/pages\/shop\/performer\.tsx$/;

/** Whether `id` is `target` or imported by it, directly or through other static imports. */
function importedBy(id: string, target: RegExp, ctx: Context, seen = new Set<string>()): boolean {
  if (target.test(id)) return true;
  if (seen.has(id)) return false;
  seen.add(id);
  return (ctx.getModuleInfo(id)?.importers ?? []).some((importer) => importedBy(importer, target, ctx, seen));
}

/**
 * A dancer's or studio's page (/dancers/<id>, /studios/<id>) paints its routines only once its code has
 * run (decision 035), and the bundler's own splitting gave that code as 17 small files beside the entry:
 * on a phone's HTTP/1.1 connections (six at a time) each costs a round trip, which Lighthouse counts. So
 * every module the page imports statically that the entry does not goes into one file, `performer`.
 * Modules it imports lazily (the removal dialog, the schemas) stay their own. The entry's modules are
 * caught first, into the entry's own file (they were six files; decision 015's budget: first-load
 * JavaScript of / 99.3 -> 96.4 KB gzip, fewer boundaries). Screens sharing some of these modules (the
 * library, the cart, the service pages, the download page) load that file (13 KB gzip) too, after their
 * first paint. Not recursive: the captured modules' own imports are either captured too or the entry's,
 * which is loaded first.
 */
export const screenChunk: CodeSplitting = {
  groups: [
    {
      // The entry's modules first: they stay where they were (the entry's one file).
      name: 'index',
      tags: ['$initial'],
      priority: 2,
    },
    {
      name: (id, ctx) => (importedBy(id, PERFORMER, ctx) ? 'performer' : null),
      priority: 1,
      includeDependenciesRecursively: false,
    },
  ],
};
