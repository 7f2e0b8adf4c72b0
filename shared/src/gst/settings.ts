import { eq } from 'drizzle-orm';
import type { Config } from '../config.ts';
import { gstSettings, type Db } from '../db/index.ts';
import type { GstSettings } from '../schemas/gst.ts';

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
  if (!row) return gstDefaults(config);
  return {
    registered: row.registered,
    gstNumber: row.gstNumber,
    legalName: row.legalName,
    address: row.address,
    rateBasisPoints: row.rateBasisPoints,
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
