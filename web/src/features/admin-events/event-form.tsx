import { useForm, Controller } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { z } from 'zod';
import { insertEventSchema } from '../../lib/schemas.ts';
import { FieldError, Input, Label, Textarea } from '../../components/ui/input.tsx';
import { FormSubmit } from '../admin-shell/form-submit.tsx';
import { ImagePicker } from '../admin-uploads/image-picker.tsx';
import type { EventOutput } from './queries.ts';

export type EventInput = z.input<typeof insertEventSchema>;

/** A new event's empty form. */
export const blankEvent: EventInput = {
  title: '',
  description: '',
  date: '',
  location: '',
  eventType: 'competition',
  jotformUrl: '',
  imageUrl: '',
};

/** An event's fields, checked with the api's own schema. */
export function EventForm({
  initial,
  busy,
  onSubmit,
}: {
  initial: EventInput;
  busy: boolean;
  onSubmit: (input: EventOutput) => void;
}) {
  const form = useForm<EventInput, unknown, EventOutput>({
    resolver: zodResolver(insertEventSchema),
    defaultValues: initial,
  });
  const { errors } = form.formState;
  return (
    <form noValidate onSubmit={form.handleSubmit(onSubmit)} className="space-y-4">
      <div>
        <Label htmlFor="event-title">Title</Label>
        <Input id="event-title" {...form.register('title')} aria-invalid={errors.title ? true : undefined} />
        <FieldError message={errors.title?.message} />
      </div>
      <div>
        <Label htmlFor="event-description">Description</Label>
        <Textarea id="event-description" rows={3} {...form.register('description')} />
        <FieldError message={errors.description?.message} />
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <Label htmlFor="event-date">Date</Label>
          <Input id="event-date" type="date" {...form.register('date')} />
          <FieldError message={errors.date?.message} />
        </div>
        <div>
          <Label htmlFor="event-type">Event type</Label>
          <Input id="event-type" {...form.register('eventType')} />
          <FieldError message={errors.eventType?.message} />
        </div>
      </div>
      <div>
        <Label htmlFor="event-location">Location</Label>
        <Input id="event-location" {...form.register('location')} />
        <FieldError message={errors.location?.message} />
      </div>
      <div>
        <Label htmlFor="event-jotform">Booking form URL (optional)</Label>
        <Input
          id="event-jotform"
          placeholder="https://form.jotform.com/..."
          {...form.register('jotformUrl')}
        />
        <FieldError message={errors.jotformUrl?.message} />
      </div>
      <div>
        <Label htmlFor="event-image">Event image</Label>
        <Controller
          control={form.control}
          name="imageUrl"
          render={({ field }) => (
            <ImagePicker
              id="event-image"
              value={field.value}
              onChange={field.onChange}
              invalid={Boolean(errors.imageUrl)}
            />
          )}
        />
        <FieldError message={errors.imageUrl?.message} />
      </div>
      <FormSubmit pending={busy}>Save Event</FormSubmit>
    </form>
  );
}
