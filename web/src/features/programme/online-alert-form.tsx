import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { BellRing, MailCheck } from 'lucide-react';
import { Button, SubmitButton } from '../../components/ui/button.tsx';
import { FieldError, InputField, useTextInput } from '../../components/ui/input.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useRequestOnlineAlert } from './queries.ts';

type Target = { entryId: string } | { dancerId: string };

// The address rule is the api's own (the shared schemas), loaded as the field is focused rather than with
// the page: the schemas are a third of a dancer's page's code (decision 035).
const loadSchemas = () => import('../../lib/schemas.ts');

/**
 * "Tell me when it is online" (decision 035): an address for one e-mail when a video of this routine or
 * dancer is published. The api sends a confirmation first; nothing else goes before it is confirmed.
 * `collapsed`: a button that opens the form (in a routine's card); otherwise the form shows at once.
 */
export function OnlineAlertForm({
  target,
  label,
  collapsed = false,
}: {
  target: Target;
  /** What the visitor waits for, in the button: "this routine", "Māia N.'s routines". */
  label: string;
  collapsed?: boolean;
}) {
  const id = useId();
  const [open, setOpen] = useState(!collapsed);
  const [email, emailInput] = useTextInput('');
  const [invalid, setInvalid] = useState<string>();
  const request = useRequestOnlineAlert();
  const input = useRef<HTMLInputElement>(null);
  const opened = useRef(false);
  // Opened from its button: the field takes the focus the button had.
  useEffect(() => {
    if (open && collapsed && !opened.current) input.current?.focus();
    opened.current = open;
  }, [open, collapsed]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const { buyerEmailSchema } = await loadSchemas();
    const parsed = buyerEmailSchema.safeParse(email);
    if (!parsed.success) {
      setInvalid(parsed.error.issues[0]?.message ?? 'Enter a valid email address');
      return;
    }
    setInvalid(undefined);
    request.mutate({ email: parsed.data, ...target });
  };

  if (request.isSuccess)
    return (
      <p role="status" className="flex gap-2 text-sm text-zinc-200">
        <MailCheck className="mt-0.5 size-4 shrink-0 text-emerald-300" aria-hidden /> {request.data.message}
      </p>
    );
  if (!open)
    return (
      <Button variant="ghost" size="sm" className="-ml-3 self-start" onClick={() => setOpen(true)}>
        <BellRing className="size-4" aria-hidden /> Tell me when it is online
      </Button>
    );
  return (
    <form
      onSubmit={(event) => void submit(event)}
      noValidate
      className="text-left"
      aria-label={`E-mail me when ${label} is online`}
    >
      <InputField
        id={`${id}-email`}
        label="Your e-mail"
        type="email"
        autoComplete="email"
        inputMode="email"
        required
        ref={input}
        onFocus={() => void loadSchemas()}
        {...emailInput}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid ? `${id}-email-error` : `${id}-email-note`}
      />
      <FieldError id={`${id}-email-error`} message={invalid} />
      <p id={`${id}-email-note`} className="mt-1 text-xs text-zinc-400">
        One e-mail when a video is online, after you confirm; then we delete your address.
      </p>
      {request.isError && (
        <p role="alert" className="mt-2 text-sm text-red-300">
          {errorMessage(request.error, 'That did not work. Please try again in a minute.')}
        </p>
      )}
      <SubmitButton size="sm" className="mt-3" pending={request.isPending} pendingLabel="Sending...">
        Tell me when it is online
      </SubmitButton>
    </form>
  );
}
