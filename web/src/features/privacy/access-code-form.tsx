import { useId, useState, type FormEvent } from 'react';
import { KeyRound } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { ACCESS_CODE_DAYS } from '@app/shared/privacy';
import type { ShowcaseAccessRequest } from '@app/shared/schemas';
import { Button } from '../../components/ui/button.tsx';
import { cardClass } from '../../components/ui/card.tsx';
import { FieldError, Input, Label, useTextInput } from '../../components/ui/input.tsx';
import { api, errorMessage } from '../../lib/api.ts';

/**
 * The access code of a showcase the studio keeps private (docs/decisions/030): typed once, it opens the
 * showcase on this device for 30 days (a cookie the api sets), and the page asks for its lists again.
 */
export function AccessCodeForm({ target }: { target: Omit<ShowcaseAccessRequest, 'code'> }) {
  const id = useId();
  const client = useQueryClient();
  const [code, codeInput, setCode] = useTextInput();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await api.post('/api/showcase-access', { ...target, code } satisfies ShowcaseAccessRequest);
      await client.invalidateQueries();
    } catch (failure) {
      setError(errorMessage(failure, 'The code could not be checked. Please try again.'));
      setCode('');
    } finally {
      setBusy(false);
    }
  };
  return (
    <form onSubmit={(event) => void submit(event)} className={`${cardClass} mt-8 max-w-lg p-6`}>
      <h2 className="flex items-center gap-2 text-lg font-semibold text-white">
        <KeyRound className="size-5 text-spotlight-400" aria-hidden /> Private showcase
      </h2>
      <p className="mt-1 text-sm text-zinc-400">
        The studio keeps these videos for its families. Enter the access code they gave you; this device
        remembers it for {ACCESS_CODE_DAYS} days.
      </p>
      <Label htmlFor={`${id}-code`} className="mt-4">
        Access code
      </Label>
      <Input
        id={`${id}-code`}
        autoComplete="off"
        autoCapitalize="none"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...codeInput}
      />
      <FieldError id={`${id}-error`} message={error} />
      <Button type="submit" className="mt-4" disabled={!code.trim() || busy}>
        {busy ? 'Checking...' : 'Open showcase'}
      </Button>
    </form>
  );
}
