import { useState, type FormEvent } from 'react';
import type { AdminTestimonial } from '@app/shared/schemas';
import { InputField, TextareaField, textBinder } from '../../components/ui/input.tsx';
import { FormSubmit } from '../admin-shell/form-submit.tsx';
import { useSaveTestimonial } from './queries.ts';

/** A testimonial's name, quote and event: a new one, or `testimonial` changed. */
export function TestimonialForm({
  testimonial,
  onDone,
}: {
  testimonial?: AdminTestimonial;
  onDone: () => Promise<unknown>;
}) {
  const [fields, setFields] = useState({
    name: testimonial?.name ?? '',
    quote: testimonial?.quote ?? '',
    event: testimonial?.event ?? '',
  });
  const bind = textBinder(fields, (change) => setFields((current) => ({ ...current, ...change })));
  const save = useSaveTestimonial(testimonial, onDone);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ name: fields.name, quote: fields.quote, event: fields.event.trim() || null });
  };
  return (
    <form className="space-y-4" onSubmit={submit}>
      <InputField
        id="testimonial-name"
        label="Name"
        required
        maxLength={120}
        placeholder="Sarah M., dance parent"
        {...bind('name')}
      />
      <TextareaField
        id="testimonial-quote"
        label="Quote"
        required
        rows={4}
        maxLength={1000}
        {...bind('quote')}
      />
      <InputField
        id="testimonial-event"
        label="Event (optional)"
        maxLength={200}
        placeholder="Canterbury Dance Festival 2026"
        {...bind('event')}
      />
      <FormSubmit disabled={!fields.name.trim() || !fields.quote.trim()} pending={save.isPending}>
        Save Testimonial
      </FormSubmit>
    </form>
  );
}
