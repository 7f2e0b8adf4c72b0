import { clsx, type ClassValue } from 'clsx';

/** Joins class names. Callers add classes that do not fight the component's own (no merging library: it costs 8 KB). */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
