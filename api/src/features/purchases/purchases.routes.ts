import type { Router } from 'express';
import { z } from 'zod';
import { offlinePurchaseRequestSchema, purchaseFilterSchema } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import {
  listPurchases,
  purchasesCsv,
  recordOfflinePayment,
  resendReceipt,
  salesSummary,
} from './purchases.service.ts';

const pageSchema = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});

export function registerPurchaseRoutes(admin: Router, deps: Deps): void {
  const { db } = deps;
  admin.get('/api/admin/purchases', async (req, res) => {
    const filter = purchaseFilterSchema.parse(req.query);
    const { page, pageSize } = pageSchema.parse(req.query);
    res.set('Cache-Control', 'no-store').json(await listPurchases(db, filter, page, pageSize));
  });

  admin.get('/api/admin/purchases.csv', async (req, res) => {
    const csv = await purchasesCsv(db, purchaseFilterSchema.parse(req.query));
    res
      .type('text/csv')
      .set('Content-Disposition', 'attachment; filename="purchases.csv"')
      .set('Cache-Control', 'no-store')
      .send(csv);
  });

  admin.get('/api/admin/sales-summary', async (_req, res) => {
    res.set('Cache-Control', 'no-store').json(await salesSummary(db));
  });

  admin.post('/api/admin/purchases/:id/resend', async (req, res) => {
    const id = z.string().trim().min(1).max(100).parse(req.params.id);
    res.status(202).json(await resendReceipt(deps, id));
  });

  admin.post('/api/admin/purchases/offline', async (req, res) => {
    const input = offlinePurchaseRequestSchema.parse(req.body ?? {});
    res.status(202).json(await recordOfflinePayment(deps, input));
  });
}
