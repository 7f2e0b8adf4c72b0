import type { AdminShowcase, AdminVideo } from '@app/shared/schemas';

// What the admin video screens share (videos-page.tsx and the other files in this folder).

export type { AdminVideo };
/** Hidden showcases included: the owner's list (GET /api/admin/showcases). */
export type Showcase = AdminShowcase;

/** Parses a whole-number field: a non-number counts as 0, never below 0. */
export const whole = (value: string) => Math.max(0, Number.parseInt(value, 10) || 0);
export const splitTags = (value: string) =>
  value
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);

export const titleFromFileName = (name: string) =>
  name
    .replace(/\.[^.]+$/, '')
    .replace(/[-_]+/g, ' ')
    .trim() || name;
