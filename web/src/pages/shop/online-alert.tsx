import { Link, useParams } from 'wouter';
import { BellOff, BellRing } from 'lucide-react';
import { SubmitButton } from '../../components/ui/button.tsx';
import { useOnlineAlertAction } from '../../features/programme/queries.ts';
import { ShopLayout } from '../../features/shop/shop-layout.tsx';
import { errorMessage } from '../../lib/api.ts';

/**
 * A link from a "tell me when it is online" e-mail (decision 035): /online-alerts/<id>/confirm or
 * /unsubscribe?t=. Opening it changes nothing (mail scanners open links); the button does.
 */
export default function OnlineAlertPage() {
  const { id = '', action: path = '' } = useParams<{ id: string; action: string }>();
  const action = path === 'unsubscribe' ? 'unsubscribe' : 'confirm';
  const token =
    typeof window === 'undefined' ? '' : (new URLSearchParams(window.location.search).get('t') ?? '');
  const run = useOnlineAlertAction(id, action);
  const Icon = action === 'confirm' ? BellRing : BellOff;
  return (
    <ShopLayout title="Video alerts">
      <div className="mx-auto max-w-xl rounded-2xl border border-white/10 bg-stage-800/70 p-6">
        <h1 className="flex items-center gap-3 text-2xl font-bold text-white">
          <Icon className="size-6 text-spotlight-300" aria-hidden />
          {action === 'confirm' ? 'Confirm your video alert' : 'Cancel your video alert'}
        </h1>
        {run.isSuccess ? (
          <p role="status" className="mt-4 text-zinc-200">
            {run.data.message}
          </p>
        ) : (
          <>
            <p className="mt-4 text-zinc-300">
              {action === 'confirm'
                ? 'We will send one e-mail to your address when a video is online, then delete the address.'
                : 'We will send nothing more about this, and delete your address.'}
            </p>
            {run.isError && (
              <p role="alert" className="mt-3 text-sm text-red-300">
                {errorMessage(run.error, 'That did not work. Please try again in a minute.')}
              </p>
            )}
            <form
              onSubmit={(event) => {
                event.preventDefault();
                run.mutate(token);
              }}
            >
              <SubmitButton className="mt-5" pending={run.isPending} pendingLabel="One moment...">
                {action === 'confirm' ? 'Yes, e-mail me' : 'Cancel the alert'}
              </SubmitButton>
            </form>
          </>
        )}
        <p className="mt-6 text-sm">
          <Link href="/videos" className="text-spotlight-300 underline">
            Back to the video library
          </Link>
        </p>
      </div>
    </ShopLayout>
  );
}
