import { Children, cloneElement, type ComponentProps, type ReactElement } from 'react';
import { cn } from '../../lib/cn.ts';

const variants = {
  primary: 'bg-spotlight-400 text-stage-950 hover:bg-spotlight-300 shadow-lg shadow-spotlight-500/20',
  secondary: 'border border-white/25 bg-white/5 text-white hover:bg-white/15 backdrop-blur',
  ghost: 'text-zinc-200 hover:bg-white/10',
  danger: 'bg-curtain-500 text-white hover:bg-red-500',
};
const sizes = {
  sm: 'h-8 px-3 text-sm whitespace-nowrap',
  md: 'h-10 px-5 text-sm whitespace-nowrap',
  lg: 'h-12 px-7 text-base whitespace-nowrap',
  icon: 'size-9',
  /** A long label (a name, a price) that may wrap onto a second line on a phone. */
  wrap: 'min-h-10 px-5 py-2 text-sm text-center text-balance',
};

export interface ButtonProps extends ComponentProps<'button'> {
  variant?: keyof typeof variants;
  size?: keyof typeof sizes;
  /** Render the child element (a link) with the button's look. */
  asChild?: boolean;
}

type ChildProps = { className?: string };

export function Button({
  variant = 'primary',
  size = 'md',
  asChild,
  className,
  type,
  children,
  ...props
}: ButtonProps) {
  const classes = cn(
    'inline-flex items-center justify-center gap-2 rounded-full font-semibold transition-colors',
    'disabled:pointer-events-none disabled:opacity-50',
    variants[variant],
    sizes[size],
    className,
  );
  if (asChild) {
    // The child (a link) takes the button's look and props, its own class names last, as Radix's Slot
    // did; without Slot, radix-ui stays out of the home page's first load (decision 015).
    const child = Children.only(children) as ReactElement<ChildProps>;
    return cloneElement(child, { ...(props as ChildProps), className: cn(classes, child.props.className) });
  }
  return (
    <button type={type ?? 'button'} className={classes} {...props}>
      {children}
    </button>
  );
}

/**
 * A form's submit button: off while the form is not ready (`disabled`) or is being sent (`pending`),
 * when it says `pendingLabel` ("Sending...") instead of its own words.
 */
export function SubmitButton({
  pending = false,
  pendingLabel,
  disabled,
  children,
  ...props
}: Omit<ButtonProps, 'type' | 'asChild'> & { pending?: boolean; pendingLabel?: string }) {
  return (
    <Button type="submit" disabled={disabled || pending} {...props}>
      {pending && pendingLabel ? pendingLabel : children}
    </Button>
  );
}
