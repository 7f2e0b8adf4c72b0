import { useId, useState, type FormEvent } from 'react';
import { MailCheck } from 'lucide-react';
import { buyerEmailSchema } from '../../lib/schemas.ts';
import { Button, SubmitButton } from '../../components/ui/button.tsx';
import { FieldError, InputField, useTextInput } from '../../components/ui/input.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useRequestLink } from './queries.ts';

/**
 * The buyer's address, for an e-mailed sign-in link. The answer is the same for every address
 * (decision 024), so the page can only say that a link is on its way if the address has bought videos.
 */
export function RequestLinkForm({
  initialEmail = '',
  submitLabel = 'Email me a sign-in link',
}: {
  initialEmail?: string;
  submitLabel?: string;
}) {
  const id = useId();
  const [email, emailInput] = useTextInput(initialEmail);
  const [invalid, setInvalid] = useState<string>();
  const request = useRequestLink();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = buyerEmailSchema.safeParse(email);
    if (!parsed.success) {
      setInvalid(parsed.error.issues[0]?.message ?? 'Enter a valid email address');
      return;
    }
    setInvalid(undefined);
    request.mutate(parsed.data);
  };

  if (request.isSuccess) {
    return (
      <div role="status" className="rounded-xl border border-emerald-400/30 bg-emerald-400/10 p-5 text-left">
        <p className="flex items-center gap-2 font-semibold text-white">
          <MailCheck className="size-5 text-emerald-300" aria-hidden /> Check your inbox
        </p>
        <p className="mt-2 text-sm text-zinc-200">{request.data.message}</p>
        <p className="mt-2 text-sm text-zinc-400">
          Nothing after a few minutes? Look in your spam folder, or check the address you used at checkout.
        </p>
        <Button variant="ghost" size="sm" className="mt-3 -ml-3" onClick={() => request.reset()}>
          Use another address
        </Button>
      </div>
    );
  }
  return (
    <form onSubmit={submit} noValidate className="text-left">
      <InputField
        id={`${id}-email`}
        label="Email"
        type="email"
        autoComplete="email"
        inputMode="email"
        required
        {...emailInput}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid ? `${id}-email-error` : undefined}
      />
      <FieldError id={`${id}-email-error`} message={invalid} />
      {request.isError && (
        <p role="alert" className="mt-2 text-sm text-red-300">
          {errorMessage(request.error, 'The link could not be sent. Please try again in a minute.')}
        </p>
      )}
      <SubmitButton size="lg" className="mt-4 w-full" pending={request.isPending} pendingLabel="Sending...">
        {submitLabel}
      </SubmitButton>
    </form>
  );
}
