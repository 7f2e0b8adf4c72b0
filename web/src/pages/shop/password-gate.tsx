import { useState, type FormEvent } from 'react';
import { Lock } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { Input, Label } from '../../components/ui/input.tsx';

/** The password field and its button; the caller decides what a correct password unlocks. */
export function PasswordGate({
  buttonLabel,
  busy,
  onSubmit,
}: {
  buttonLabel: string;
  busy: boolean;
  /** Resolves false when the password was wrong, so the field is cleared. */
  onSubmit: (password: string) => Promise<boolean>;
}) {
  const [password, setPassword] = useState('');
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!(await onSubmit(password))) setPassword('');
  };
  return (
    <form onSubmit={submit} className="rounded-2xl border border-white/10 bg-stage-800/70 p-6">
      <h2 className="flex items-center gap-2 text-lg font-semibold text-white">
        <Lock className="size-5 text-spotlight-400" aria-hidden /> Password Required
      </h2>
      <p className="mt-1 text-sm text-zinc-400">
        This video is protected. Enter the password you were given.
      </p>
      <Label htmlFor="video-password" className="mt-4">
        Video password
      </Label>
      <Input
        id="video-password"
        type="password"
        autoComplete="off"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <Button type="submit" className="mt-4" disabled={!password || busy}>
        {busy ? 'Checking...' : buttonLabel}
      </Button>
    </form>
  );
}
