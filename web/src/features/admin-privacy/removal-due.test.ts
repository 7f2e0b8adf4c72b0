import { describe, expect, it } from 'vitest';
import { ageLabel, removalDue } from './removal-due.ts';

const DAY = 24 * 3600_000;
const now = Date.parse('2026-11-27T08:00:00Z');
const asked = (daysAgo: number) => new Date(now - daysAgo * DAY).toISOString();

describe('removalDue', () => {
  it('counts down the 7-day target, then counts the days overdue', () => {
    expect(removalDue(asked(0), 'open', now)).toEqual({ ageDays: 0, state: 'due', label: 'Due in 7 days' });
    expect(removalDue(asked(0.001), 'open', now).label).toBe('Due in 7 days');
    expect(removalDue(asked(5.5), 'open', now)).toEqual({ ageDays: 5, state: 'due', label: 'Due in 2 days' });
    expect(removalDue(asked(6.5), 'open', now)).toEqual({ ageDays: 6, state: 'due', label: 'Due today' });
    expect(removalDue(asked(7.2), 'open', now)).toEqual({
      ageDays: 7,
      state: 'overdue',
      label: '1 day overdue',
    });
    expect(removalDue(asked(10), 'open', now)).toEqual({
      ageDays: 10,
      state: 'overdue',
      label: '3 days overdue',
    });
  });

  it('closes a done or declined request, whatever its age', () => {
    expect(removalDue(asked(30), 'done', now).state).toBe('closed');
    expect(removalDue(asked(30), 'declined', now).label).toBe('Closed');
  });

  it('says the age in days', () => {
    expect([0, 1, 9].map(ageLabel)).toEqual(['Today', '1 day old', '9 days old']);
  });
});
