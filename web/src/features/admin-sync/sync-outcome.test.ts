import { describe, expect, it } from 'vitest';
import { jobOutcome, outcomeToast, runOutcome } from './sync-outcome.ts';

describe('jobOutcome', () => {
  it('keeps waiting while the job is queued, running or waiting to retry', () => {
    for (const state of ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']) {
      expect(jobOutcome({ state, failedReason: null })).toBe('running');
    }
  });

  it('reads a completed job’s count of updated events, none when it has no result', () => {
    expect(jobOutcome({ state: 'completed', result: { updatedCount: 3 }, failedReason: null })).toEqual({
      ok: true,
      updated: 3,
    });
    expect(jobOutcome({ state: 'completed', result: null, failedReason: null })).toEqual({
      ok: true,
      updated: 0,
    });
  });

  it('reads a failed job’s reason', () => {
    expect(jobOutcome({ state: 'failed', failedReason: 'Sheet not found' })).toEqual({
      ok: false,
      reason: 'Sheet not found',
    });
  });

  it('sends the screen to the history once the queue no longer lists the job', () => {
    expect(jobOutcome(undefined)).toBe('gone');
    expect(jobOutcome({ state: 'unknown', failedReason: null })).toBe('gone');
  });
});

describe('runOutcome', () => {
  it('reads the newest run of the history', () => {
    expect(runOutcome({ status: 'succeeded', failureReason: null, result: { updatedCount: 2 } })).toEqual({
      ok: true,
      updated: 2,
    });
    expect(runOutcome({ status: 'failed', failureReason: 'Timed out', result: null })).toEqual({
      ok: false,
      reason: 'Timed out',
    });
  });

  it('counts nothing updated when there is no run to read', () => {
    expect(runOutcome(undefined)).toEqual({ ok: true, updated: 0 });
  });
});

describe('outcomeToast', () => {
  it('says how many events were updated, or why the sync failed', () => {
    expect(outcomeToast({ ok: true, updated: 4 })).toEqual({
      title: 'Order links synced successfully!',
      description: 'Updated 4 events with new order links.',
      variant: 'success',
    });
    expect(outcomeToast({ ok: false, reason: 'Sheet not found' })).toMatchObject({
      title: 'Sync failed',
      description: 'Sheet not found',
      variant: 'destructive',
    });
  });

  it('falls back to a general message when the failure gave no reason', () => {
    expect(outcomeToast({ ok: false, reason: null }).description).toBe('Unknown error occurred');
    expect(outcomeToast({ ok: false, reason: '' }).description).toBe('Unknown error occurred');
  });
});
