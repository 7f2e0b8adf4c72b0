import { REMOVAL_TARGET_DAYS } from '@app/shared/privacy';

const DAY_MS = 24 * 3600_000;

export interface RemovalDue {
  /** Whole days since the request arrived. */
  ageDays: number;
  state: 'due' | 'overdue' | 'closed';
  /** What the queue shows: "Due in 3 days", "Due today", "2 days overdue", "Closed". */
  label: string;
}

/** Where a removal request stands against the 7-day target (its age from when it arrived). */
export function removalDue(
  createdAt: string,
  status: 'open' | 'done' | 'declined',
  now = Date.now(),
): RemovalDue {
  const age = now - Date.parse(createdAt);
  const ageDays = Math.max(0, Math.floor(age / DAY_MS));
  if (status !== 'open') return { ageDays, state: 'closed', label: 'Closed' };
  const left = REMOVAL_TARGET_DAYS * DAY_MS - age;
  if (left < 0) {
    const late = Math.max(1, Math.floor(-left / DAY_MS));
    return { ageDays, state: 'overdue', label: `${late} ${late === 1 ? 'day' : 'days'} overdue` };
  }
  // Whole days left, counting a part day as one: a request made a minute ago is due in 7 days.
  const days = Math.ceil(left / DAY_MS);
  return { ageDays, state: 'due', label: days <= 1 ? 'Due today' : `Due in ${days} days` };
}

export const ageLabel = (days: number) =>
  days === 0 ? 'Today' : `${days} ${days === 1 ? 'day' : 'days'} old`;
