import { asc, eq, like, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { postgresErrorCode, showcaseSlugRedirects, showcases, type Db } from '@app/shared/db';
import {
  MORE_VIDEOS_SLUG,
  slugify,
  type insertShowcaseSchema,
  type ShowcasePrivacyValue,
  type updateShowcaseSchema,
} from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { decryptAccessCode, encryptAccessCode } from '../privacy/showcase-access.ts';
import { showcaseColumns } from '../videos/library.service.ts';
import { auditPublishedChange, fieldError } from './video-publishing.service.ts';

/** A showcase as the owner edits it: with its bundle price (docs/decisions/023) and access code (028). */
const adminShowcaseColumns = {
  ...showcaseColumns,
  bundlePriceCents: showcases.bundlePriceCents,
  accessCodeEncrypted: showcases.accessCodeEncrypted,
};

type Keyed = Pick<Deps, 'config'>;

/** The owner reads the code back (to tell the studio); the ciphertext never leaves the api. */
const withCode =
  (deps: Keyed) =>
  <T extends { accessCodeEncrypted: string | null }>({ accessCodeEncrypted, ...row }: T) => ({
    ...row,
    accessCode: decryptAccessCode(deps, accessCodeEncrypted),
  });

/** Every showcase, hidden ones too (the public /api/showcases leaves them out), counting all its videos. */
export async function adminShowcases(deps: Pick<Deps, 'db' | 'config'>) {
  const rows = await deps.db
    .select({
      ...adminShowcaseColumns,
      videoCount: sql<number>`(select count(*) from videos v where v.showcase_id = showcases.id)::int`,
    })
    .from(showcases)
    .orderBy(asc(showcases.orderPriority), asc(showcases.createdAt));
  return rows.map(withCode(deps));
}

/** The privacy columns to write: a code is encrypted; 'code' without one (new or kept) is refused. */
function privacyValues(
  deps: Keyed,
  input: { privacy?: ShowcasePrivacyValue; accessCode?: string },
  hadCode: boolean,
) {
  const { accessCode } = input;
  if (input.privacy === 'code' && !accessCode && !hadCode)
    throw fieldError('accessCode', 'Set the access code the studio will hand out');
  return accessCode ? { accessCodeEncrypted: encryptAccessCode(deps, accessCode) } : {};
}

/** The first free slug from the name's: "jazz-2026", then "jazz-2026-2", ... */
async function freeSlug(db: Db, name: string): Promise<string> {
  const base = slugify(name);
  const taken = new Set(
    (
      await db
        .select({ slug: showcases.slug })
        .from(showcases)
        .where(or(eq(showcases.slug, base), like(showcases.slug, `${base}-%`)))
    ).map((row) => row.slug),
  );
  if (!taken.has(base) && base !== MORE_VIDEOS_SLUG) return base;
  for (let number = 2; ; number++) if (!taken.has(`${base}-${number}`)) return `${base}-${number}`;
}

const slugTaken = (error: unknown) => {
  if (postgresErrorCode(error) === '23505')
    throw fieldError('slug', 'Another showcase already uses this address');
  throw error;
};

export async function createShowcase(
  deps: Pick<Deps, 'db' | 'config'>,
  { accessCode, ...input }: z.output<typeof insertShowcaseSchema>,
) {
  const { db } = deps;
  const [showcase] = await db
    .insert(showcases)
    .values({
      ...input,
      ...privacyValues(deps, { privacy: input.privacy, accessCode }, false),
      slug: input.slug ?? (await freeSlug(db, input.name)),
    })
    .returning(adminShowcaseColumns)
    .catch(slugTaken);
  return withCode(deps)(showcase!);
}

export async function updateShowcase(
  deps: Pick<Deps, 'db' | 'config'>,
  id: string,
  { accessCode, ...input }: z.output<typeof updateShowcaseSchema>,
) {
  if (Object.keys(input).length === 0 && !accessCode) throw new HttpError(400, 'Nothing to update');
  return deps.db
    .transaction(async (tx) => {
      const [before] = await tx
        .select({
          slug: showcases.slug,
          accessCodeEncrypted: showcases.accessCodeEncrypted,
          published: showcases.published,
        })
        .from(showcases)
        .where(eq(showcases.id, id))
        .for('update');
      if (!before) throw notFound('Showcase not found');
      const [after] = await tx
        .update(showcases)
        .set({
          ...input,
          ...privacyValues(deps, { privacy: input.privacy, accessCode }, before.accessCodeEncrypted !== null),
        })
        .where(eq(showcases.id, id))
        .returning(adminShowcaseColumns);
      // The form's "published" hides or shows it as the list's buttons do: in the log too.
      await auditPublishedChange(
        tx,
        { kind: 'showcase', id, name: after!.name },
        before.published,
        input.published,
      );
      // The old address keeps working (301), and the new one is no longer anyone's old address.
      if (input.slug && input.slug !== before.slug) {
        await tx
          .insert(showcaseSlugRedirects)
          .values({ slug: before.slug, showcaseId: id })
          .onConflictDoUpdate({ target: showcaseSlugRedirects.slug, set: { showcaseId: id } });
        await tx.delete(showcaseSlugRedirects).where(eq(showcaseSlugRedirects.slug, input.slug));
      }
      return withCode(deps)(after!);
    })
    .catch(slugTaken);
}
