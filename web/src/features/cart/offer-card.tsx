import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { Package } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';

/**
 * A "buy them all at once" offer (a showcase's bundle, a dancer's or studio's routines): what it holds,
 * and its Buy button, or the way to the cart once it is in there.
 */
export function OfferCard({
  label,
  title,
  detail,
  inCart,
  buy,
}: {
  label: string;
  title: ReactNode;
  detail: ReactNode;
  inCart: boolean;
  buy: { label: ReactNode; onClick: () => void };
}) {
  return (
    <section
      aria-label={label}
      className="mt-6 flex flex-col gap-4 rounded-2xl border border-spotlight-400/40 bg-spotlight-400/5 p-5 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex items-start gap-3">
        <Package className="mt-0.5 size-6 shrink-0 text-spotlight-300" aria-hidden />
        <div>
          <p className="font-semibold text-white">{title}</p>
          {detail}
        </div>
      </div>
      {inCart ? (
        <Button asChild variant="secondary">
          <Link href="/cart">In your cart: view cart</Link>
        </Button>
      ) : (
        <Button size="wrap" onClick={buy.onClick}>
          {buy.label}
        </Button>
      )}
    </section>
  );
}
