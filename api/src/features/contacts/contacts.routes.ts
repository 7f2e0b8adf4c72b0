import { Router } from 'express';
import { adminContactListQuerySchema, insertContactSchema } from '@app/shared/schemas';
import type { Deps } from '../../deps.ts';
import { limits, rateLimiter } from '../../http/rate-limit.ts';
import { adminContacts, saveContact } from './contacts.service.ts';

/** The contact form: the enquiry is saved first; the owner's e-mail is a queued job. */
export function contactRoutes(deps: Deps): Router {
  const router = Router();
  router.post('/api/contacts', rateLimiter(deps, limits.contact), async (req, res) => {
    res.status(201).json(await saveContact(deps, insertContactSchema.parse(req.body ?? {})));
  });
  return router;
}

export function registerAdminContactRoutes(admin: Router, deps: Deps): void {
  admin.get('/api/admin/contacts', async (req, res) => {
    const query = adminContactListQuerySchema.parse(req.query);
    res.set('Cache-Control', 'no-store').json(await adminContacts(deps, query));
  });
}
