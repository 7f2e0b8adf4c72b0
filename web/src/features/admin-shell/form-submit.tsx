import { SubmitButton } from '../../components/ui/button.tsx';

/** The foot of an admin form: its submit button on the right. */
export function FormSubmit(props: Parameters<typeof SubmitButton>[0]) {
  return (
    <div className="flex justify-end">
      <SubmitButton {...props} />
    </div>
  );
}
