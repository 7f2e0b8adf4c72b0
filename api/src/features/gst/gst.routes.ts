import { Router, type Response } from 'express';
import { z } from 'zod';
import { loadGstSettings, saveGstSettings } from '@app/shared/gst';
import { gstPeriodSchema, gstSettingsSchema, offlineRefundRequestSchema } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import {
  documentForOwner,
  documentForSession,
  documentsForOwner,
  type DocumentFile,
} from './documents.service.ts';
import { gstReport, gstReportCsv, xeroCsv } from './report.service.ts';
import { refundOfflinePayment } from './refunds.service.ts';

const idSchema = z.string().trim().min(1).max(100);
const xeroQuerySchema = z.object({
  account: z
    .string()
    .trim()
    .regex(/^[\w.-]{1,10}$/)
    .default('200'),
});

export function sendPdf(res: Response, file: DocumentFile): void {
  res
    .type('application/pdf')
    .set('Content-Disposition', `inline; filename="${file.fileName}"`)
    .set('Cache-Control', 'private, no-store')
    .send(file.body);
}

/** The owner's GST settings, report, Xero export, documents and offline refunds (decision 029). */
export function registerGstRoutes(admin: Router, deps: Deps): void {
  const { db, config } = deps;

  admin.get('/api/admin/gst/settings', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await loadGstSettings(db, config));
  });

  admin.put('/api/admin/gst/settings', async (req, res) => {
    const settings = gstSettingsSchema.parse(req.body ?? {});
    res.json(await saveGstSettings(db, settings));
  });

  admin.get('/api/admin/gst/report', async (req, res) => {
    const period = gstPeriodSchema.parse(req.query);
    const { registered } = await loadGstSettings(db, config);
    res.set('Cache-Control', 'no-store').json(await gstReport(db, period, registered));
  });

  admin.get('/api/admin/gst/report.csv', async (req, res) => {
    const period = gstPeriodSchema.parse(req.query);
    const { registered } = await loadGstSettings(db, config);
    res
      .type('text/csv')
      .set('Content-Disposition', `attachment; filename="gst-${period.from}-${period.to}.csv"`)
      .set('Cache-Control', 'no-store')
      .send(gstReportCsv(await gstReport(db, period, registered)));
  });

  admin.get('/api/admin/gst/xero.csv', async (req, res) => {
    const period = gstPeriodSchema.parse(req.query);
    const { account } = xeroQuerySchema.parse(req.query);
    res
      .type('text/csv')
      .set('Content-Disposition', `attachment; filename="xero-sales-${period.from}-${period.to}.csv"`)
      .set('Cache-Control', 'no-store')
      .send(await xeroCsv(db, period, account));
  });

  admin.get('/api/admin/purchases/:id/documents', async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await documentsForOwner(db, idSchema.parse(req.params.id)));
  });

  admin.get('/api/admin/documents/:id.pdf', async (req, res) => {
    sendPdf(res, await documentForOwner(db, idSchema.parse(req.params.id)));
  });

  admin.post('/api/admin/purchases/:id/refund', async (req, res) => {
    const id = idSchema.parse(req.params.id);
    const { amountCents, reason } = offlineRefundRequestSchema.parse(req.body ?? {});
    res.status(201).json(await refundOfflinePayment(deps, id, amountCents, reason ?? null));
  });
}

/** The buyer's copy, with the purchase's proof (its checkout session id, as the download page uses). */
export function documentRoutes(deps: Deps): Router {
  const router = Router();
  router.get('/api/purchases/:sessionId/documents/:id.pdf', async (req, res) => {
    const sessionId = z.string().trim().min(1).max(255).parse(req.params.sessionId);
    sendPdf(res, await documentForSession(deps.db, sessionId, idSchema.parse(req.params.id)));
  });
  return router;
}
