import { Router } from 'express';
import { requireAdmin } from './session.ts';

/**
 * The admin routes are exactly the routes registered on the admin router.
 * Every request under these prefixes needs the owner's session, so a route added here later is
 * protected without remembering to; a test enumerates the router to prove it.
 */
export const ADMIN_PREFIXES = ['/api/admin', '/api/sync-order-links', '/admin/queues'] as const;

/** Open to visitors although they sit under /api/admin. */
export const PUBLIC_ADMIN_ROUTES = ['POST /api/admin/login', 'GET /api/admin/session'] as const;

export function createAdminRouter(): Router {
  const router = Router();
  router.use([...ADMIN_PREFIXES], requireAdmin);
  return router;
}
