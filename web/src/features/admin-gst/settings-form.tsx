import { useState, type FormEvent } from 'react';
import { isValidGstNumber } from '@app/shared/gst/ird-number';
import type { GstSettings } from '@app/shared/schemas';
import { Card } from '../../components/ui/card.tsx';
import { CheckboxField, FieldError, InputField, TextareaField } from '../../components/ui/input.tsx';
import { FormSubmit } from '../admin-shell/form-submit.tsx';
import { useSaveGstSettings } from './queries.ts';

/** The owner's GST registration: what every new document prints (issued ones keep their own copy). */
export function GstSettingsForm({ settings }: { settings: GstSettings }) {
  const [fields, setFields] = useState({
    registered: settings.registered,
    gstNumber: settings.gstNumber ?? '',
    legalName: settings.legalName,
    address: settings.address,
    rate: String(settings.rateBasisPoints / 100),
  });
  const set = (change: Partial<typeof fields>) => setFields((current) => ({ ...current, ...change }));
  const numberProblem =
    fields.gstNumber.trim() && !isValidGstNumber(fields.gstNumber)
      ? 'This is not a valid GST number (IRD check digit)'
      : fields.registered && !fields.gstNumber.trim()
        ? 'A GST-registered business needs its GST number'
        : undefined;
  const save = useSaveGstSettings();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({
      registered: fields.registered,
      gstNumber: fields.gstNumber.trim() || null,
      legalName: fields.legalName,
      address: fields.address,
      rateBasisPoints: Math.round(Number(fields.rate) * 100),
    });
  };
  return (
    <Card className="p-5">
      <form onSubmit={submit} className="space-y-4" aria-label="GST settings">
        <CheckboxField
          className="text-sm text-zinc-200"
          checked={fields.registered}
          onCheckedChange={(registered) => set({ registered })}
        >
          GST-registered (documents over NZ$200 become tax invoices showing the GST)
        </CheckboxField>
        <div>
          <InputField
            id="gst-number"
            label="GST number"
            inputMode="numeric"
            placeholder="49-091-850"
            aria-invalid={numberProblem ? true : undefined}
            aria-describedby={numberProblem ? 'gst-number-error' : undefined}
            value={fields.gstNumber}
            onChange={(event) => set({ gstNumber: event.target.value })}
          />
          <FieldError id="gst-number-error" message={numberProblem} />
        </div>
        <InputField
          id="gst-legal-name"
          label="Legal name"
          required
          value={fields.legalName}
          onChange={(event) => set({ legalName: event.target.value })}
        />
        <TextareaField
          id="gst-address"
          label="Address"
          rows={3}
          value={fields.address}
          onChange={(event) => set({ address: event.target.value })}
        />
        <InputField
          id="gst-rate"
          label="GST rate (%)"
          type="number"
          min={0}
          max={100}
          step="0.01"
          value={fields.rate}
          onChange={(event) => set({ rate: event.target.value })}
        />
        <p className="text-sm text-zinc-400">
          Prices stay as shown (GST-inclusive). Not registered: receipts show no GST at all.
        </p>
        <FormSubmit pending={save.isPending} disabled={Boolean(numberProblem) || !fields.legalName.trim()}>
          Save GST settings
        </FormSubmit>
      </form>
    </Card>
  );
}
