import { useState } from 'react';
import type { AdminPurchase } from '@app/shared/schemas';
import { InputField, moneyInput, textBinder } from '../../components/ui/input.tsx';
import { FormSubmit } from '../admin-shell/form-submit.tsx';
import { useRefund } from './queries.ts';

/** An offline payment given back: the amount (NZ$) and why, for the credit note. */
export function RefundForm({ purchase, onDone }: { purchase: AdminPurchase; onDone: () => void }) {
  const [fields, setFields] = useState({ amount: (purchase.amountCents / 100).toFixed(2), reason: '' });
  const set = (change: Partial<typeof fields>) => setFields((current) => ({ ...current, ...change }));
  const bind = textBinder(fields, set);
  const refund = useRefund(purchase.id, onDone);
  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        refund.mutate({
          amountCents: Math.round(Number(fields.amount) * 100),
          ...(fields.reason.trim() && { reason: fields.reason.trim() }),
        });
      }}
    >
      <InputField
        id="refund-amount"
        label="Amount refunded (NZ$)"
        {...moneyInput('NZ$')}
        {...bind('amount')}
      />
      <InputField
        id="refund-reason"
        label="Reason (printed on the credit note)"
        maxLength={200}
        {...bind('reason')}
      />
      <FormSubmit pending={refund.isPending} disabled={!(Number(fields.amount) > 0)}>
        Record refund
      </FormSubmit>
    </form>
  );
}
