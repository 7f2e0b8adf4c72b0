import { eq, sql } from 'drizzle-orm';
import type { Config } from '../config.ts';
import { gstSettings, type Db } from '../db/index.ts';
import type { GstSettings } from '../../contracts/schemas/gst.ts';

/** What the environment says until the owner saves the settings screen. */
export function gstDefaults(config: Config): GstSettings {
  return {
    registered: config.GST_REGISTERED,
    gstNumber: config.GST_NUMBER ?? null,
    legalName: config.GST_LEGAL_NAME,
    address: config.GST_ADDRESS,
    rateBasisPoints: Math.round(config.GST_RATE * 100),
  };
}

export async function loadGstSettings(db: Db, config: Config): Promise<GstSettings> {
  const [row] = await db.select().from(gstSettings).where(eq(gstSettings.id, 1));
  return gstSettingsOf(row ?? null, gstDefaults(config));
}

/**
 * The saved settings as one column of another query (null when none are saved), so a transaction
 * reads them with a statement it makes anyway (the fulfilment's row lock): read on every payment, as
 * saved at that moment, without a round trip of their own.
 */
export const savedGstSettings = sql<GstSettings | null>`(
  select json_build_object(
    'registered', registered,
    'gstNumber', gst_number,
    'legalName', legal_name,
    'address', address,
    'rateBasisPoints', rate_basis_points
  ) from ${gstSettings} where id = 1
)`;

export function gstSettingsOf(saved: GstSettings | null, defaults: GstSettings): GstSettings {
  if (!saved) return defaults;
  return {
    registered: saved.registered,
    gstNumber: saved.gstNumber,
    legalName: saved.legalName,
    address: saved.address,
    rateBasisPoints: saved.rateBasisPoints,
  };
}

export async function saveGstSettings(db: Db, settings: GstSettings): Promise<GstSettings> {
  const values = { ...settings };
  await db
    .insert(gstSettings)
    .values({ id: 1, ...values })
    .onConflictDoUpdate({ target: gstSettings.id, set: { ...values, updatedAt: new Date() } });
  return settings;
}
