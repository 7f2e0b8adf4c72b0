import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from 'express';
import { programmeUploadQuerySchema, textIdSchema } from '@app/shared/schemas';
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

function uploaded(req: Request) {
  if (!Buffer.isBuffer(req.body) || req.body.length === 0)
    throw new HttpError(400, 'Send the programme file (CSV or XLSX) as the request body');
  return req.body;
}

/** The owner's programme import (decision 028); on the admin router, so every route needs the session. */
export function registerProgrammeAdminRoutes(admin: Router, deps: Deps): void {
  const { db, publicCache } = deps;

  admin.post(
    '/api/admin/showcases/:id/programme/preview',
    ...programmeBody,
    async (req: Request, res: Response) => {
      const showcaseId = textIdSchema.parse(req.params.id);
      const query = programmeUploadQuerySchema.parse(req.query);
      res.set('Cache-Control', 'no-store').json(await previewProgramme(db, showcaseId, uploaded(req), query));
    },
  );

  admin.post(
    '/api/admin/showcases/:id/programme/import',
    ...programmeBody,
    publicCache.writeRoute(async (req) => {
      const showcaseId = textIdSchema.parse(req.params.id);
      const query = programmeUploadQuerySchema.parse(req.query);
      return importProgramme(db, showcaseId, uploaded(req), query);
    }),
  );
}
