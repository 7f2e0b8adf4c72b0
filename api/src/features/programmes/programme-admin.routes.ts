import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from 'express';
import {
  adminEntriesQuerySchema,
  entryUpdateSchema,
  linkVideoSchema,
  mergeDancersSchema,
  programmeSettingsSchema,
  programmeUploadQuerySchema,
  textIdSchema,
} from '@app/shared/schemas';
import { eq } from 'drizzle-orm';
import { showcases } from '@app/shared/db';
import { alertsAfterPublish } from '@app/shared/queue';
import { csvCell } from '../../http/csv.ts';
import { notFound } from '../../http/errors.ts';
import {
  linkVideo,
  listEntries,
  mergeDancers,
  removeDancer,
  updateEntry,
  updateProgrammeSettings,
} from './entries.service.ts';
import type { Deps } from '../../deps.ts';
import { HttpError } from '../../http/errors.ts';
import { PROGRAMME_MAX_BYTES } from './programme-file.ts';
import { importProgramme, previewProgramme } from './programme-import.ts';

/** The file is the request body itself: read into memory (5 MB at most), used and dropped, never stored. */
const raw = express.raw({ type: () => true, limit: PROGRAMME_MAX_BYTES });
const programmeBody: RequestHandler[] = [
  (req: Request, _res: Response, next: NextFunction) => {
    if (Number(req.get('content-length') ?? 0) > PROGRAMME_MAX_BYTES)
      throw new HttpError(400, 'A programme file may be at most 5 MB.');
    next();
  },
  raw,
];

/** What the preview and the import both read: the showcase, how to read the file, and the file. */
function programmeUpload(req: Request) {
  const showcaseId = textIdSchema.parse(req.params.id);
  const query = programmeUploadQuerySchema.parse(req.query);
  if (!Buffer.isBuffer(req.body) || req.body.length === 0)
    throw new HttpError(400, 'Send the programme file (CSV or XLSX) as the request body');
  return { showcaseId, query, bytes: req.body };
}

/** The owner's programme import (decision 032); on the admin router, so every route needs the session. */
export function registerProgrammeAdminRoutes(admin: Router, deps: Deps): void {
  const { db, publicCache } = deps;

  admin.post(
    '/api/admin/showcases/:id/programme/preview',
    ...programmeBody,
    async (req: Request, res: Response) => {
      const { showcaseId, query, bytes } = programmeUpload(req);
      res.set('Cache-Control', 'no-store').json(await previewProgramme(db, showcaseId, bytes, query));
    },
  );

  admin.post(
    '/api/admin/showcases/:id/programme/import',
    ...programmeBody,
    async (req: Request, res: Response) => {
      const { showcaseId, query, bytes } = programmeUpload(req);
      const imported = await importProgramme(db, showcaseId, bytes, query);
      await publicCache.changed();
      res.json(imported);
    },
  );

  admin.get('/api/admin/showcases/:id/entries', async (req, res) => {
    const query = adminEntriesQuerySchema.parse(req.query);
    res
      .set('Cache-Control', 'no-store')
      .json(await listEntries(db, textIdSchema.parse(req.params.id), query));
  });

  // The programme as the site holds it; cells a spreadsheet would run as formulas are escaped.
  admin.get('/api/admin/showcases/:id/entries.csv', async (req, res) => {
    const { items } = await listEntries(
      db,
      textIdSchema.parse(req.params.id),
      { filter: 'all', page: 1 },
      20_000,
    );
    const header = ['Entry', 'Section', 'Routine', 'Dancers', 'Studio', 'Videos', 'Sold'];
    const lines = items.map((entry) =>
      [
        entry.entryNumber,
        entry.section,
        entry.title,
        entry.dancers.map((dancer) => dancer.name).join(', '),
        entry.studio ?? '',
        entry.videos.length,
        entry.sold ? 'yes' : 'no',
      ]
        .map(csvCell)
        .join(','),
    );
    res
      .set('Cache-Control', 'no-store')
      .attachment('programme.csv')
      .type('text/csv; charset=utf-8')
      .send(`\uFEFF${[header.map(csvCell).join(','), ...lines].join('\r\n')}\r\n`);
  });

  // Each write then tells the public cache, before answering, so no page shows the old programme.
  admin.patch('/api/admin/showcases/:id/programme-settings', async (req, res) => {
    const id = textIdSchema.parse(req.params.id);
    const settings = await updateProgrammeSettings(db, id, programmeSettingsSchema.parse(req.body ?? {}));
    await publicCache.changed();
    res.json(settings);
  });

  admin.put('/api/admin/entries/:id', async (req, res) => {
    const id = textIdSchema.parse(req.params.id);
    const entry = await updateEntry(db, id, entryUpdateSchema.parse(req.body ?? {}));
    await publicCache.changed();
    res.json(entry);
  });

  admin.post('/api/admin/entries/link-video', async (req, res) => {
    const { videoId, entryId } = linkVideoSchema.parse(req.body ?? {});
    const linked = await linkVideo(db, videoId, entryId);
    // A published video given to an entry answers the alerts waiting for it (decision 035).
    if (entryId !== null) await alertsAfterPublish(deps);
    await publicCache.changed();
    res.json(linked);
  });

  admin.post('/api/admin/showcases/:id/dancers/merge', async (req, res) => {
    const { keepId, mergeId } = mergeDancersSchema.parse(req.body ?? {});
    const merged = await mergeDancers(db, textIdSchema.parse(req.params.id), keepId, mergeId);
    await publicCache.changed();
    res.json(merged);
  });

  admin.delete('/api/admin/dancers/:id', async (req, res) => {
    const id = textIdSchema.parse(req.params.id);
    await removeDancer(db, id);
    await publicCache.changed();
    res.json({ id, deleted: true });
  });

  // A QR code for the printed programme and the venue's screens: the competition's search page.
  admin.get('/api/admin/showcases/:id/qr.:format', async (req, res) => {
    const id = textIdSchema.parse(req.params.id);
    const format = req.params.format;
    if (format !== 'png' && format !== 'svg') throw notFound('No such QR code format');
    const [showcase] = await db.select({ slug: showcases.slug }).from(showcases).where(eq(showcases.id, id));
    if (!showcase) throw notFound('Showcase not found');
    const url = `${deps.config.PUBLIC_URL}/videos?showcase=${encodeURIComponent(showcase.slug)}`;
    const options = { errorCorrectionLevel: 'M' as const, margin: 2 };
    const { default: QRCode } = await import('qrcode');
    res.set('Cache-Control', 'no-store').attachment(`${showcase.slug}-qr.${format}`);
    if (format === 'svg')
      res.type('image/svg+xml').send(await QRCode.toString(url, { ...options, type: 'svg' }));
    else res.type('image/png').send(await QRCode.toBuffer(url, { ...options, type: 'png', width: 1024 }));
  });
}
