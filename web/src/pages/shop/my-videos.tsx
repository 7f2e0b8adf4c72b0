import { useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'wouter';
import { Film, KeyRound, Loader2, LogOut } from 'lucide-react';
import { buyerSignInSchema, BUYER_LINK_MINUTES } from '../../lib/schemas.ts';
import { Button } from '../../components/ui/button.tsx';
import { errorMessage } from '../../lib/api.ts';
import { ShopLayout } from '../../features/shop/shop-layout.tsx';
import { BuyerVideoList } from '../../features/buyer-library/buyer-video-list.tsx';
import { RequestLinkForm } from '../../features/buyer-library/request-link-form.tsx';
import { useBuyerLibrary, useSignIn, useSignOut } from '../../features/buyer-library/queries.ts';
import { DocumentLinks } from '../../features/shop/document-links.tsx';

const TITLE = 'My Videos';

function Panel({ children }: { children: ReactNode }) {
  return (
    <div className="mx-auto max-w-md rounded-2xl border border-white/10 bg-stage-800/70 p-6 text-center sm:p-8">
      {children}
    </div>
  );
}

/** /my-videos: the signed-in buyer's videos, or the form that e-mails a sign-in link. */
export default function MyVideosPage() {
  const library = useBuyerLibrary();
  const signOut = useSignOut();
  const data = library.data;

  if (library.isPending) {
    return (
      <ShopLayout title={TITLE}>
        <div role="status" className="flex justify-center py-20 text-zinc-400">
          <Loader2 className="size-8 animate-spin" aria-hidden />
          <span className="sr-only">Loading your videos...</span>
        </div>
      </ShopLayout>
    );
  }
  if (!data) {
    return (
      <ShopLayout title={TITLE}>
        <Panel>
          <h1 className="text-3xl font-bold text-white">{TITLE}</h1>
          <p className="mt-3 text-zinc-300">
            Every video you have bought, in one place. Enter the email address you used at checkout and we
            will send you a link to sign in (no password needed).
          </p>
          {library.isError && (
            <p role="alert" className="mt-4 text-sm text-red-300">
              {errorMessage(library.error, 'Your videos could not be loaded. Please try again.')}
            </p>
          )}
          <div className="mt-6">
            <RequestLinkForm />
          </div>
        </Panel>
      </ShopLayout>
    );
  }
  return (
    <ShopLayout title={TITLE}>
      <div className="mx-auto max-w-6xl">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <h1 className="text-3xl font-bold text-white">{TITLE}</h1>
            <p className="mt-2 text-sm break-all text-zinc-400">
              Signed in as <span className="text-zinc-200">{data.email}</span>
            </p>
          </div>
          <Button
            variant="secondary"
            className="self-start sm:self-auto"
            disabled={signOut.isPending}
            onClick={() => signOut.mutate()}
          >
            <LogOut className="size-4" aria-hidden /> Sign out
          </Button>
        </div>
        {data.videos.length > 0 ? (
          <BuyerVideoList videos={data.videos} />
        ) : (
          <div className="mt-10 rounded-2xl border border-white/10 bg-stage-800/70 p-8 text-center">
            <Film className="mx-auto size-10 text-zinc-500" aria-hidden />
            <p className="mt-3 text-zinc-300">There are no paid videos for this address.</p>
            <Button asChild variant="secondary" className="mt-5">
              <Link href="/videos">Browse the video library</Link>
            </Button>
          </div>
        )}
        <DocumentLinks documents={data.documents} heading="Receipts and invoices" />
      </div>
    </ShopLayout>
  );
}

/** The e-mailed link's fragment (never sent to a server): the address and the token. */
function linkFromFragment() {
  const params = new URLSearchParams(window.location.hash.slice(1));
  return { email: params.get('email') ?? '', token: params.get('token') ?? '' };
}

/**
 * /my-videos/sign-in#email=...&token=...: one tap spends the link and opens the library. A tap, not
 * an automatic request: mail scanners open links too, and would use up a single-use link.
 */
export function SignInPage() {
  const [, navigate] = useLocation();
  const [link] = useState(linkFromFragment);
  const signIn = useSignIn();
  const parsed = buyerSignInSchema.safeParse(link);

  // The token leaves the address bar (and this page's history entry) once read.
  useEffect(() => {
    if (window.location.hash) window.history.replaceState(window.history.state, '', window.location.pathname);
  }, []);

  const problem = !parsed.success
    ? 'This sign-in link is not complete. Ask for a new one below.'
    : signIn.isError
      ? errorMessage(signIn.error, 'Signing in did not work. Please try again.')
      : undefined;

  return (
    <ShopLayout title={TITLE}>
      <Panel>
        <h1 className="text-3xl font-bold text-white">{TITLE}</h1>
        {problem ? (
          <>
            <p role="alert" className="mt-4 text-zinc-200">
              {problem}
            </p>
            <div className="mt-6">
              <RequestLinkForm initialEmail={link.email} submitLabel="Email me a new link" />
            </div>
          </>
        ) : (
          <>
            <KeyRound className="mx-auto mt-4 size-10 text-spotlight-400" aria-hidden />
            <p className="mt-4 text-zinc-300">
              Open the videos bought with <span className="break-all text-white">{parsed.data?.email}</span>{' '}
              on this device. The link works once, within {BUYER_LINK_MINUTES} minutes of being sent.
            </p>
            <Button
              size="lg"
              className="mt-6 w-full"
              disabled={signIn.isPending}
              onClick={() => {
                if (!parsed.data) return;
                signIn.mutate(parsed.data, { onSuccess: () => navigate('/my-videos', { replace: true }) });
              }}
            >
              {signIn.isPending ? 'Opening...' : 'Open my videos'}
            </Button>
          </>
        )}
      </Panel>
    </ShopLayout>
  );
}
