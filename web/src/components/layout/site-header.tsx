import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'wouter';
import { Aperture, Menu, ShoppingCart, X } from 'lucide-react';
import { business } from '@app/shared/site-copy/site';
import { cn } from '../../lib/cn.ts';
import { useCart } from '../../features/cart/cart-store.ts';
import { goToSection, homeSections, useActiveSection } from '../../lib/scroll.ts';
import { navLinks } from './nav-links.ts';

/**
 * Browsers without popovers (Safari before 17) get the phone menu from the app: the button toggles it,
 * and it shows in the header's flow as a plain list. False on the server, where nothing toggles.
 */
const popovers = typeof HTMLElement !== 'undefined' && 'popover' in HTMLElement.prototype;

/** The fixed top navigation. On home it scrolls and follows the reader; elsewhere it links to /#section. */
export function SiteHeader() {
  const [location, navigate] = useLocation();
  // The phone menu is a popover its button opens without the app (a tap on a slow phone lands before
  // the app has taken the page over); the browser closes it on Escape or a tap outside. `open` follows it.
  const menu = useRef<HTMLUListElement>(null);
  const [open, setOpen] = useState(false);
  const onHome = location === '/';
  const active = useActiveSection(homeSections);

  // Opened before the app held the page: its toggle event came before React listened.
  useEffect(() => {
    if (popovers) setOpen(menu.current?.matches(':popover-open') ?? false);
  }, []);

  const closeMenu = () => {
    if (!popovers) setOpen(false);
    else if (menu.current?.matches(':popover-open')) menu.current.hidePopover();
  };
  const choose = (entry: (typeof navLinks)[number]) => {
    closeMenu();
    if (entry.href) navigate(entry.href);
    else if (entry.section) goToSection(entry.section, navigate);
  };
  const isActive = (entry: (typeof navLinks)[number]) =>
    entry.href ? location.startsWith(entry.href) : onHome && entry.section === active;

  return (
    <header className="fixed inset-x-0 top-0 z-40 border-b border-white/10 bg-stage-950/85 backdrop-blur-md">
      <a
        href="#main"
        onClick={(event) => {
          event.preventDefault();
          skipToMain();
        }}
        className="sr-only rounded-full bg-spotlight-400 px-4 py-2 font-semibold text-stage-950 focus:not-sr-only focus:absolute focus:top-3 focus:left-3 focus:z-50"
      >
        Skip to content
      </a>
      <nav
        aria-label="Main"
        className="mx-auto flex h-16 max-w-7xl items-center justify-between px-4 sm:px-6"
      >
        <button
          type="button"
          onClick={() => {
            closeMenu();
            goToSection('home', navigate);
          }}
          className="flex items-center gap-2 font-display text-lg font-semibold text-white"
        >
          <Aperture className="size-6 text-spotlight-400" aria-hidden />
          {business.name}
        </button>
        <ul className="hidden items-center gap-1 lg:flex">
          {navLinks.map((entry) => (
            <li key={entry.label}>
              <NavEntry entry={entry} active={isActive(entry)} onChoose={choose} />
            </li>
          ))}
        </ul>
        <CartButton active={location === '/cart'} />
        <button
          type="button"
          popoverTarget="mobile-menu"
          className="rounded-lg p-2 text-zinc-200 hover:bg-white/10 lg:hidden"
          aria-label={open ? 'Close menu' : 'Open menu'}
          onClick={popovers ? undefined : () => setOpen((value) => !value)}
        >
          {open ? <X className="size-6" aria-hidden /> : <Menu className="size-6" aria-hidden />}
        </button>
      </nav>
      {/* Open, it sits in the top layer under the header's 4 rem; closed (or on a wide screen), hidden. */}
      <ul
        id="mobile-menu"
        ref={menu}
        popover="auto"
        onToggle={(event) => setOpen(event.newState === 'open')}
        className={cn(
          'inset-x-0 top-16 bottom-auto m-0 hidden h-auto w-full border-0 border-y border-white/10 bg-stage-950 px-4 py-3 text-zinc-300 max-lg:open:block',
          !popovers && open && 'max-lg:block',
        )}
      >
        {navLinks.map((entry) => (
          <li key={entry.label}>
            <NavEntry entry={entry} active={isActive(entry)} onChoose={choose} block />
          </li>
        ))}
      </ul>
    </header>
  );
}

/** The cart with how many videos and bundles it holds (kept in this browser, shared by its tabs). */
function CartButton({ active }: { active: boolean }) {
  const count = useCart().length;
  return (
    <Link
      href="/cart"
      aria-label={count === 1 ? 'Cart, 1 item' : `Cart, ${count} items`}
      aria-current={active ? 'page' : undefined}
      className={cn(
        'relative ml-auto rounded-lg p-2 text-zinc-200 hover:bg-white/10 lg:ml-2',
        active && 'text-spotlight-300',
      )}
    >
      <ShoppingCart className="size-6" aria-hidden />
      {count > 0 && (
        <span
          data-testid="cart-count"
          className="absolute -top-0.5 -right-0.5 grid min-w-5 place-items-center rounded-full bg-spotlight-400 px-1 text-xs font-bold text-stage-950"
        >
          {count}
        </span>
      )}
    </Link>
  );
}

/** Moves keyboard focus past the navigation to the page's main landmark, whatever page it is. */
function skipToMain() {
  const main = document.querySelector('main');
  if (!main) return;
  main.tabIndex = -1;
  main.focus({ preventScroll: true });
  main.scrollIntoView({ block: 'start' });
}

function NavEntry({
  entry,
  active,
  onChoose,
  block,
}: {
  entry: (typeof navLinks)[number];
  active: boolean;
  onChoose: (entry: (typeof navLinks)[number]) => void;
  block?: boolean;
}) {
  const className = cn(
    'rounded-full px-3 py-2 text-sm font-medium transition-colors',
    block && 'block w-full rounded-lg py-3 text-left text-base',
    active ? 'text-spotlight-300' : 'text-zinc-300 hover:text-white',
  );
  const href = entry.href ?? `/#${entry.section}`;
  return (
    <Link
      href={href}
      className={className}
      aria-current={active ? (entry.href ? 'page' : 'location') : undefined}
      onClick={(event) => {
        event.preventDefault();
        onChoose(entry);
      }}
    >
      {entry.label}
    </Link>
  );
}
