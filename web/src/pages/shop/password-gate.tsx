import { useId, type FormEvent, type ReactNode } from 'react';
import { Lock } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { cardClass } from '../../components/ui/card.tsx';
import { Input, Label, useTextInput } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/toast-store.ts';

/** Resolves false when the password was wrong, so the field is cleared. */
type PasswordAction = (password: string) => Promise<boolean>;

/** The password field and its button; the caller decides what a correct password unlocks. */
export function PasswordGate({
  buttonLabel,
  busy,
  onSubmit,
  secondary,
}: {
  buttonLabel: string;
  busy: boolean;
  onSubmit: PasswordAction;
  /** A second button using the same field (the download page's Download), with its own empty-field message. */
  secondary?: { label: ReactNode; emptyMessage: string; onClick: PasswordAction };
}) {
  const id = useId();
  const [password, passwordInput, setPassword] = useTextInput();
  const run = async (action: PasswordAction) => {
    if (!(await action(password))) setPassword('');
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!password) {
      toast({
        title: 'Password Required',
        description: 'Please enter the video password.',
        variant: 'destructive',
      });
      return;
    }
    void run(onSubmit);
  };
  return (
    <form onSubmit={submit} className={`${cardClass} p-6`}>
      <h2 className="flex items-center gap-2 text-lg font-semibold text-white">
        <Lock className="size-5 text-spotlight-400" aria-hidden /> Password Required
      </h2>
      <p className="mt-1 text-sm text-zinc-400">
        This video is protected. Enter the password you were given.
      </p>
      <Label htmlFor={`${id}-password`} className="mt-4">
        Video password
      </Label>
      <Input id={`${id}-password`} type="password" autoComplete="off" {...passwordInput} />
      <div className="mt-4 flex flex-wrap gap-3">
        <Button type="submit" disabled={!password || busy}>
          {busy ? 'Checking...' : buttonLabel}
        </Button>
        {secondary && (
          <Button
            variant="secondary"
            disabled={busy}
            onClick={() => {
              if (!password) toast({ title: secondary.emptyMessage, variant: 'destructive' });
              else void run(secondary.onClick);
            }}
          >
            {secondary.label}
          </Button>
        )}
      </div>
    </form>
  );
}
