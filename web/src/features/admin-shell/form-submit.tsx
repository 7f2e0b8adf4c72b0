import { SubmitButton } from '../../components/ui/button.tsx';

/** The foot of an admin form: its submit button on the right, saying "Saving..." while the form is sent. */
export function FormSubmit({ pendingLabel = 'Saving...', ...props }: Parameters<typeof SubmitButton>[0]) {
  return (
    <div className="flex justify-end">
      <SubmitButton pendingLabel={pendingLabel} {...props} />
    </div>
  );
}
