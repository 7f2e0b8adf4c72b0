import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { contactEventTypes } from '@app/shared/constants';
import { insertContactSchema } from '../../lib/schemas.ts';
import { Button } from '../../components/ui/button.tsx';
import { FieldError, Input, Label, Select, Textarea } from '../../components/ui/input.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { api, errorMessage } from '../../lib/api.ts';
import { track } from '../../lib/analytics.ts';

type ContactInput = z.input<typeof insertContactSchema>;
type Contact = z.output<typeof insertContactSchema>;

const empty: ContactInput = { firstName: '', lastName: '', email: '', eventType: '', message: '' };

/** The enquiry form; loaded on its own so the form library and zod stay out of the first page load. */
export default function ContactForm() {
  const form = useForm<ContactInput, unknown, Contact>({
    resolver: zodResolver(insertContactSchema),
    defaultValues: empty,
  });
  const send = useMutation({
    mutationFn: (contact: Contact) => api.post('/api/contacts', contact),
    onSuccess: (_result, contact) => {
      track('Contact Sent', { eventType: contact.eventType ?? 'not given' });
      toast({
        title: 'Message sent and verified successfully!',
        description: "I'll get back to you within 24 hours.",
        variant: 'success',
      });
      form.reset(empty);
    },
    onError: (error) => {
      toast({
        title: 'Failed to send message',
        description: errorMessage(error, 'Please try again or contact me directly.'),
        variant: 'destructive',
      });
    },
  });
  const { errors } = form.formState;
  const field = (name: keyof ContactInput) => ({
    id: `contact-${name}`,
    'aria-invalid': errors[name] ? true : undefined,
    'aria-describedby': errors[name] ? `contact-${name}-error` : undefined,
    ...form.register(name),
  });

  return (
    <form
      noValidate
      onSubmit={form.handleSubmit((contact) => send.mutate(contact))}
      className="reveal grid gap-5 rounded-2xl border border-white/10 bg-stage-800/60 p-7 sm:grid-cols-2"
      aria-label="Contact form"
    >
      <div>
        <Label htmlFor="contact-firstName">First name</Label>
        <Input autoComplete="given-name" required {...field('firstName')} />
        <FieldError id="contact-firstName-error" message={errors.firstName?.message} />
      </div>
      <div>
        <Label htmlFor="contact-lastName">Last name</Label>
        <Input autoComplete="family-name" required {...field('lastName')} />
        <FieldError id="contact-lastName-error" message={errors.lastName?.message} />
      </div>
      <div className="sm:col-span-2">
        <Label htmlFor="contact-email">Email</Label>
        <Input type="email" autoComplete="email" required {...field('email')} />
        <FieldError id="contact-email-error" message={errors.email?.message} />
      </div>
      <div className="sm:col-span-2">
        <Label htmlFor="contact-eventType">Event type</Label>
        <Select {...field('eventType')}>
          <option value="">Select an event type</option>
          {contactEventTypes.map((type) => (
            <option key={type.value} value={type.value}>
              {type.label}
            </option>
          ))}
        </Select>
      </div>
      <div className="sm:col-span-2">
        <Label htmlFor="contact-message">Message</Label>
        <Textarea rows={5} required {...field('message')} />
        <FieldError id="contact-message-error" message={errors.message?.message} />
      </div>
      <div className="sm:col-span-2">
        <Button type="submit" size="lg" disabled={send.isPending} className="w-full sm:w-auto">
          {send.isPending ? 'Sending...' : 'Send Message'}
        </Button>
      </div>
    </form>
  );
}
