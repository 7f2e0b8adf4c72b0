import { sql } from 'drizzle-orm';
import type { Db } from '@app/shared/db';
import { sellableVideoV } from '@app/shared/sales';
import {
  displayDancerName,
  offerTitle,
  routineBundlePrice,
  type DancerNameDisplay,
  type PerformerPage,
  type RoutineBundleOffer,
  type RoutineBundleRule,
} from '@app/shared/schemas';
import { notFound } from '../../http/errors.ts';
import { accessCodeRequired, type ShowcaseGate, type ShowcaseOpener } from '../privacy/showcase-access.ts';
import { routinesOf } from './programme-search.ts';

// A dancer's or a studio's page at one competition (decision 032), and its "buy all" offer, priced here
// and again by the cart from the database: the browser never names a price.

export type PerformerKind = 'dancer' | 'studio';

type Performer = {
  id: string;
  name: string;
  showcaseId: string;
  showcaseName: string;
  slug: string;
  display: DancerNameDisplay;
  rule: RoutineBundleRule | null;
  entryIds: string[];
  gate: ShowcaseGate;
};

/** The dancer or studio of a published showcase with its entries in programme order; undefined: none such. */
export async function findPerformer(db: Pick<Db, 'execute'>, kind: PerformerKind, id: string) {
  const entries =
    kind === 'dancer'
      ? sql`(select coalesce(jsonb_agg(e.id order by e.entry_sort, e.entry_number), '[]')
          from programme_entry_dancers ed join programme_entries e on e.id = ed.entry_id where ed.dancer_id = p.id)`
      : sql`(select coalesce(jsonb_agg(e.id order by e.entry_sort, e.entry_number), '[]')
          from programme_entries e where e.studio_id = p.id)`;
  const table = kind === 'dancer' ? sql`programme_dancers` : sql`programme_studios`;
  const { rows } = await db.execute<Performer>(sql`
    select p.id, p.name, s.id as "showcaseId", s.name as "showcaseName", s.slug, s.dancer_names as display,
      s.routine_bundle_rule as rule, ${entries} as "entryIds",
      jsonb_build_object('showcaseId', s.id, 'privacy', s.privacy, 'accessCodeEncrypted', s.access_code_encrypted) as gate
    from ${table} p join showcases s on s.id = p.showcase_id
    where p.id = ${id} and s.published`);
  return rows[0];
}

/**
 * Every sold video of these entries (published, priced, not password protected, and deliverable: not
 * failed nor still being processed, as a showcase bundle), and the rule's price.
 */
export async function routineOffer(
  db: Pick<Db, 'execute'>,
  performer: Pick<Performer, 'entryIds' | 'rule'>,
): Promise<(Omit<RoutineBundleOffer, 'title'> & { titles: string[]; prices: number[] }) | null> {
  if (!performer.rule || performer.entryIds.length === 0) return null;
  const { rows } = await db.execute<{ id: string; title: string; priceCents: number; entryId: string }>(sql`
    select v.id, v.title, v.price_cents as "priceCents", v.entry_id as "entryId" from videos v
    where v.entry_id in (select jsonb_array_elements_text(${JSON.stringify(performer.entryIds)}::jsonb))
      and v.published and v.price_cents > 0 and not v.password_protected and ${sellableVideoV}
    order by v.created_at, v.id`);
  const routineCount = new Set(rows.map((row) => row.entryId)).size;
  const separateCents = rows.reduce((sum, row) => sum + row.priceCents, 0);
  const priceCents = routineBundlePrice(performer.rule, routineCount, separateCents);
  if (priceCents === null) return null;
  return {
    videoIds: rows.map((row) => row.id),
    titles: rows.map((row) => row.title),
    prices: rows.map((row) => row.priceCents),
    routineCount,
    priceCents,
    separateCents,
  };
}

/** GET /api/dancers/{id} and /api/studios/{id}. */
export async function performerPage(
  db: Db,
  kind: PerformerKind,
  id: string,
  canOpen: ShowcaseOpener,
): Promise<PerformerPage> {
  const performer = await findPerformer(db, kind, id);
  if (!performer) throw notFound(kind === 'dancer' ? 'Dancer not found' : 'Studio not found');
  // Names behind an access code are for the browsers that typed it (decision 030).
  if (!canOpen(performer.gate)) throw accessCodeRequired();
  const [routines, offer] = await Promise.all([
    routinesOf(db, performer.entryIds),
    routineOffer(db, performer),
  ]);
  const name = kind === 'dancer' ? displayDancerName(performer.name, performer.display) : performer.name;
  return {
    kind,
    id: performer.id,
    name,
    showcase: { id: performer.showcaseId, name: performer.showcaseName, slug: performer.slug },
    routines: performer.entryIds.flatMap((entryId) => routines.get(entryId) ?? []),
    offer: offer && {
      title: offerTitle(kind, name, offer.routineCount),
      videoIds: offer.videoIds,
      routineCount: offer.routineCount,
      priceCents: offer.priceCents,
      separateCents: offer.separateCents,
    },
  };
}

export { offerTitle };
