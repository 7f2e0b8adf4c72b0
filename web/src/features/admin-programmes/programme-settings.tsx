import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { DancerNameDisplay, ProgrammeSettings, RoutineBundleRule } from '@app/shared/schemas';
import { Card } from '../../components/ui/card.tsx';
import { FilterSelect, Input, Label } from '../../components/ui/input.tsx';
import { api } from '../../lib/api.ts';
import { useAdminMutation } from '../admin-shell/admin-mutation.ts';
import { adminKeys } from '../admin-shell/query-keys.ts';
import { FormSubmit } from '../admin-shell/form-submit.tsx';

const displays: Array<{ value: DancerNameDisplay; label: string }> = [
  { value: 'initial', label: 'First name and initial (Aroha N.)' },
  { value: 'full', label: 'Full name (Aroha Ngata)' },
  { value: 'hidden', label: 'Hidden (found only by full name or entry number)' },
];

/** How dancers' names show, and the "buy all of a dancer's routines" rule, for one showcase. */
export function ProgrammeSettingsForm({
  showcaseId,
  settings,
}: {
  showcaseId: string;
  settings: ProgrammeSettings;
}) {
  const client = useQueryClient();
  const rule = settings.routineBundleRule;
  const [display, setDisplay] = useState(settings.dancerNames);
  const [kind, setKind] = useState<'none' | RoutineBundleRule['kind']>(rule?.kind ?? 'none');
  const [percent, setPercent] = useState(rule?.kind === 'percent' ? String(rule.percentOff) : '20');
  const [tiers, setTiers] = useState(
    rule?.kind === 'tiers'
      ? rule.tiers.map((tier) => `${tier.routines}=${(tier.priceCents / 100).toFixed(2)}`).join(', ')
      : '2=35.00, 3=50.00, 4=60.00',
  );
  const save = useAdminMutation({
    mutationFn: (body: ProgrammeSettings) =>
      api.patch(`/api/admin/showcases/${encodeURIComponent(showcaseId)}/programme-settings`, body),
    failure: 'Failed to save the programme settings',
    success: 'Programme settings saved',
    onSuccess: () => client.invalidateQueries({ queryKey: adminKeys.entries.of(showcaseId) }),
  });
  const parsedTiers = tiers
    .split(',')
    .map((part) => /^\s*(\d+)\s*=\s*(?:NZ\$)?\s*(\d+(?:\.\d{1,2})?)\s*$/i.exec(part))
    .map((match) => match && { routines: Number(match[1]), priceCents: Math.round(Number(match[2]) * 100) });
  const tiersValid = parsedTiers.length > 0 && parsedTiers.every(Boolean);
  return (
    <Card className="p-5">
      <h2 className="text-lg font-semibold text-white">Names and &ldquo;buy all&rdquo;</h2>
      <form
        className="mt-4 grid gap-4 sm:grid-cols-2"
        onSubmit={(event) => {
          event.preventDefault();
          const routineBundleRule: RoutineBundleRule | null =
            kind === 'percent'
              ? { kind: 'percent', percentOff: Number(percent) }
              : kind === 'tiers'
                ? { kind: 'tiers', tiers: parsedTiers.filter((tier) => tier !== null) }
                : null;
          save.mutate({ dancerNames: display, routineBundleRule });
        }}
      >
        <label className="text-sm text-zinc-300">
          Dancers&apos; names on the public site
          <FilterSelect
            label="Dancers' names"
            className="mt-1 w-full"
            value={display}
            onChange={(value) => setDisplay((value || 'initial') as DancerNameDisplay)}
            anyLabel="First name and initial (default)"
            options={displays}
          />
        </label>
        <label className="text-sm text-zinc-300">
          Buy all of a dancer&apos;s routines
          <FilterSelect
            label="Buy all rule"
            className="mt-1 w-full"
            value={kind === 'none' ? '' : kind}
            onChange={(value) => setKind((value || 'none') as typeof kind)}
            anyLabel="No offer"
            options={[
              { value: 'percent', label: 'A percentage off' },
              { value: 'tiers', label: 'A price per number of routines' },
            ]}
          />
        </label>
        {kind === 'percent' && (
          <div>
            <Label htmlFor="routine-percent">Percent off (1-90)</Label>
            <Input
              id="routine-percent"
              type="number"
              min={1}
              max={90}
              value={percent}
              onChange={(event) => setPercent(event.target.value)}
            />
          </div>
        )}
        {kind === 'tiers' && (
          <div className="sm:col-span-2">
            <Label htmlFor="routine-tiers">Routines = price in NZ$, e.g. 2=35.00, 3=50.00, 4=60.00</Label>
            <Input id="routine-tiers" value={tiers} onChange={(event) => setTiers(event.target.value)} />
            {!tiersValid && <p className="mt-1 text-sm text-red-300">Write each as routines=price.</p>}
          </div>
        )}
        <div className="sm:col-span-2">
          <FormSubmit pending={save.isPending} disabled={kind === 'tiers' && !tiersValid}>
            Save settings
          </FormSubmit>
        </div>
      </form>
    </Card>
  );
}
