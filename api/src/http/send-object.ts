import type { Request, Response } from 'express';
import rangeParser from 'range-parser';
import type { Storage } from '@app/shared/storage';
import { notFound } from './errors.ts';

/**
 * Sends a stored object with Range support (players seek and browsers fetch video in ranges);
 * `headers` add caching and naming.
 */
export async function sendStoredObject(
  req: Request,
  res: Response,
  storage: Storage,
  key: string,
  headers: Record<string, string>,
): Promise<void> {
  const head = await storage.head(key);
  if (!head) throw notFound('File not found');
  const ranges = req.headers.range ? rangeParser(head.size, req.headers.range, { combine: true }) : undefined;
  if (ranges === -1) {
    res.status(416).set('Content-Range', `bytes */${head.size}`).json({ message: 'Range not satisfiable' });
    return;
  }
  const range =
    Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1 ? ranges[0] : undefined;
  const object = await storage.get(key, range && { start: range.start, end: range.end });
  if (!object) throw notFound('File not found');

  res.set({ 'Content-Type': object.contentType, 'Accept-Ranges': 'bytes', ...headers });
  if (range) {
    res.status(206).set({
      'Content-Range': `bytes ${range.start}-${range.end}/${head.size}`,
      'Content-Length': String(range.end - range.start + 1),
    });
  } else {
    res.set('Content-Length', String(head.size));
  }
  object.body.on('error', () => res.destroy());
  object.body.pipe(res);
}
