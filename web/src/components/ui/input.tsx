import { useState, type ChangeEvent, type ComponentProps, type ReactNode } from 'react';
import { Search } from 'lucide-react';
import { cn } from '../../lib/cn.ts';

const field =
  'rounded-lg border border-stage-600 bg-stage-950/60 px-3 py-2 text-sm text-zinc-100 placeholder:text-zinc-500 ' +
  'focus:border-spotlight-400 focus:outline-none focus:ring-2 focus:ring-spotlight-400/30 disabled:opacity-50 aria-[invalid=true]:border-curtain-500';

/** Full width unless the caller gives a width (classes are not merged, so two widths would fight). */
const width = (className?: string) => (/(^|\s)w-/.test(className ?? '') ? undefined : 'w-full');

export function Input({ className, ...props }: ComponentProps<'input'>) {
  return <input className={cn(field, width(className), 'h-10', className)} {...props} />;
}

/** A search box: its label is for screen readers (the placeholder shows what it searches). */
export function SearchInput({
  label,
  onSearch,
  ...props
}: Omit<ComponentProps<'input'>, 'onChange' | 'type'> & { label: string; onSearch: (text: string) => void }) {
  return (
    <Input
      type="search"
      aria-label={label}
      maxLength={200}
      onChange={(event) => onSearch(event.target.value)}
      {...props}
    />
  );
}

/**
 * A shop's search box (`q`, up to 200 characters) with its magnifier: the library's and a showcase's.
 * `className` sizes the box; the input takes the rest of the props.
 */
export function SearchField({ className, ...props }: ComponentProps<'input'>) {
  return (
    <div className={cn('relative flex-1', className)}>
      <Search
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-zinc-500"
        aria-hidden
      />
      <Input type="search" name="q" maxLength={200} className="pl-9" {...props} />
    </div>
  );
}

export function Textarea({ className, ...props }: ComponentProps<'textarea'>) {
  return <textarea className={cn(field, width(className), 'min-h-28', className)} {...props} />;
}

export function Select({ className, ...props }: ComponentProps<'select'>) {
  return <select className={cn(field, width(className), 'h-10', className)} {...props} />;
}

export function Label({ className, ...props }: ComponentProps<'label'>) {
  return <label className={cn('mb-1.5 block text-sm font-medium text-zinc-200', className)} {...props} />;
}

/** A field's validation message, announced to screen readers. */
export function FieldError({ id, message }: { id?: string; message?: string }) {
  if (!message) return null;
  return (
    <p id={id} role="alert" className="mt-1 text-sm text-red-300">
      {message}
    </p>
  );
}

/** An input with its label above it; the id ties the two together. */
export function InputField({ label, ...props }: ComponentProps<'input'> & { id: string; label: string }) {
  return (
    <div>
      <Label htmlFor={props.id}>{label}</Label>
      <Input {...props} />
    </div>
  );
}

/** An amount of money the owner types: a number, never negative, in whole cents or in NZ$ to the cent. */
export const moneyInput = (unit: 'cents' | 'NZ$') =>
  ({
    type: 'number',
    min: 0,
    step: unit === 'cents' ? 1 : 0.01,
    inputMode: unit === 'cents' ? 'numeric' : 'decimal',
  }) as const;

/** A text area with its label above it. */
export function TextareaField({
  label,
  ...props
}: ComponentProps<'textarea'> & { id: string; label: string }) {
  return (
    <div>
      <Label htmlFor={props.id}>{label}</Label>
      <Textarea {...props} />
    </div>
  );
}

type TextKeys<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T];

/** `value` and `onChange` for a form kept as one object of strings: `<Input {...bind('title')} />`. */
export function textBinder<T extends object>(fields: T, update: (change: Partial<T>) => void) {
  return (name: TextKeys<T>) => ({
    value: fields[name] as string,
    onChange: (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
      update({ [name]: event.target.value } as Partial<T>),
  });
}

type TextChange = ChangeEvent<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>;

/**
 * One text field's state: its value, the `value` and `onChange` to spread on the field
 * (`<Input {...emailInput} />`), and a setter for the rare change that is not typed (clearing it).
 */
export function useTextInput(initial = '') {
  const [value, setValue] = useState(initial);
  const input = { value, onChange: (event: TextChange) => setValue(event.target.value) };
  return [value, input, setValue] as const;
}

/** A file chooser styled like the other fields' buttons. */
export function FileInput({ className, ...props }: Omit<ComponentProps<'input'>, 'type'>) {
  return (
    <input
      type="file"
      className={cn(
        'text-sm text-zinc-300 file:mr-3 file:rounded-full file:border-0 file:bg-white/10 file:px-4 file:py-2 file:text-zinc-100',
        className,
      )}
      {...props}
    />
  );
}

/** A checkbox with its label beside it; `className` sets the label's text (its size and colour). */
export function CheckboxField({
  className,
  checked,
  disabled,
  onCheckedChange,
  children,
}: Pick<ComponentProps<'input'>, 'disabled'> & {
  className: string;
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  children: ReactNode;
}) {
  return (
    <label className={cn('flex items-center gap-2', className)}>
      <input
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onCheckedChange(event.target.checked)}
        className="size-4 accent-spotlight-400"
      />
      {children}
    </label>
  );
}

/** A list filter: "any" (the empty value) first, then each option; a plain string is its own value. */
export function FilterSelect({
  id,
  label,
  className,
  value,
  onChange,
  anyLabel,
  options,
  name,
  disabled,
}: {
  /** For a visible <label htmlFor> beside it. */
  id?: string;
  label: string;
  className?: string;
  value: string;
  onChange: (value: string) => void;
  anyLabel: string;
  options: ReadonlyArray<string | { value: string; label: string }>;
  /** The field's name in a form that also works without JavaScript. */
  name?: string;
  disabled?: boolean;
}) {
  return (
    <Select
      id={id}
      name={name}
      aria-label={label}
      className={className}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      disabled={disabled}
    >
      <option value="">{anyLabel}</option>
      {options.map((option) =>
        typeof option === 'string' ? (
          <option key={option}>{option}</option>
        ) : (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ),
      )}
    </Select>
  );
}
