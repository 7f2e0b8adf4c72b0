import type { ReactNode } from 'react';
import { ShieldCheck } from 'lucide-react';
import { useForm, useWatch, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { FieldError, Input, Label } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { cn } from '../../lib/cn.ts';
import { buyerSchema, emptyBuyer, hasBuyerDetails, isInAppBrowser, type Buyer } from './checkout.ts';

export type BuyerForm = UseFormReturn<Buyer>;

/** The buyer's name and e-mail; `ready` once both are filled (the buy buttons stay disabled until then). */
export function useBuyerForm(initial?: Buyer): { form: BuyerForm; ready: boolean } {
  const form = useForm<Buyer>({
    resolver: zodResolver(buyerSchema),
    defaultValues: initial ?? emptyBuyer,
    mode: 'onTouched',
  });
  const values = useWatch({ control: form.control });
  return { form, ready: hasBuyerDetails(values) };
}

/**
 * The checked details, or null after telling the visitor what is missing. Synchronous on purpose: the
 * payment tab has to be opened in the same click, before anything is awaited.
 */
export function readBuyer(form: BuyerForm): Buyer | null {
  const values = form.getValues();
  if (!hasBuyerDetails(values)) {
    toast({
      title: 'Missing Information',
      description: 'Please provide your name and email address.',
      variant: 'destructive',
    });
    return null;
  }
  const parsed = buyerSchema.safeParse(values);
  if (!parsed.success) {
    void form.trigger();
    return null;
  }
  return parsed.data;
}

/**
 * Details the purchase page handed over when it sent the visitor to the payment options (in the
 * history entry's state, so they are not kept anywhere else).
 */
export function handedOverBuyer(): Buyer | undefined {
  const state: unknown = window.history.state;
  if (!state || typeof state !== 'object' || !('buyer' in state)) return undefined;
  const parsed = buyerSchema.safeParse(state.buyer);
  return parsed.success ? parsed.data : undefined;
}

export function BuyerFields({
  form,
  idPrefix,
  className,
}: {
  form: BuyerForm;
  idPrefix: string;
  className?: string;
}) {
  const { errors } = form.formState;
  const field = (name: keyof Buyer) => ({
    id: `${idPrefix}-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `${idPrefix}-${name}-error` : undefined,
    ...form.register(name),
  });
  return (
    <div className={cn('grid gap-4', className)}>
      <div>
        <Label htmlFor={`${idPrefix}-customerName`}>Name</Label>
        <Input autoComplete="name" required {...field('customerName')} />
        <FieldError id={`${idPrefix}-customerName-error`} message={errors.customerName?.message} />
      </div>
      <div>
        <Label htmlFor={`${idPrefix}-customerEmail`}>Email</Label>
        <Input type="email" autoComplete="email" inputMode="email" required {...field('customerEmail')} />
        <FieldError id={`${idPrefix}-customerEmail-error`} message={errors.customerEmail?.message} />
      </div>
      <label className="flex items-start gap-2 text-sm text-zinc-300">
        <input
          type="checkbox"
          id={`${idPrefix}-remindMe`}
          className="mt-0.5 size-4 accent-spotlight-400"
          {...form.register('remindMe')}
        />
        E-mail me one reminder with a link back to this cart if I don’t finish paying
      </label>
    </div>
  );
}

/** A form that pays with the buyer's details: submitting reads and checks them, then calls `onBuyer`. */
export function BuyerDetailsForm({
  form,
  label,
  className,
  onBuyer,
  children,
}: {
  form: BuyerForm;
  label: string;
  className?: string;
  onBuyer: (buyer: Buyer) => void;
  children: ReactNode;
}) {
  return (
    <form
      noValidate
      aria-label={label}
      className={className}
      onSubmit={(event) => {
        event.preventDefault();
        const buyer = readBuyer(form);
        if (buyer) onBuyer(buyer);
      }}
    >
      {children}
    </form>
  );
}

/** Where the card payment opens: a new tab, except in in-app browsers that cannot keep one. */
export function SecurePaymentNote() {
  return (
    <p className="mt-3 flex items-center justify-center gap-1.5 text-xs text-zinc-500">
      <ShieldCheck className="size-3.5" aria-hidden /> Secure card payment opens in{' '}
      {isInAppBrowser() ? 'this tab' : 'a new tab'}.
    </p>
  );
}
