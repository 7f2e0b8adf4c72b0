import { useState, type FormEvent } from 'react';
import { X } from 'lucide-react';
import { formatPrice } from '@app/shared/format';
import { Button } from '../../components/ui/button.tsx';
import {
  Input,
  InputField,
  Label,
  moneyInput,
  Select,
  textBinder,
  useTextInput,
} from '../../components/ui/input.tsx';
import { FormSubmit } from '../admin-shell/form-submit.tsx';
import { useBundles, useRecordOfflinePayment, useVideoSearch } from './queries.ts';

/** A payment made by bank transfer or cash: what it paid for, who paid, and how much. */
export function OfflineForm({ onDone }: { onDone: () => void }) {
  // The library may hold tens of thousands of videos: the owner searches, and picks from the best 50.
  const [videoSearch, videoSearchInput] = useTextInput();
  const videos = useVideoSearch(videoSearch.trim());
  const bundles = useBundles();
  const [chosen, setChosen] = useState<
    Array<{ id: string; title: string; priceCents: number; bundle: boolean }>
  >([]);
  const [fields, setFields] = useState({ buyerName: '', buyerEmail: '', amount: '' });
  /** Adds a video or bundle; the amount follows the list prices until the owner types another. */
  const choose = (item: (typeof chosen)[number]) => {
    if (chosen.some((existing) => existing.id === item.id && existing.bundle === item.bundle)) return;
    const next = [...chosen, item];
    setChosen(next);
    set({ amount: (next.reduce((sum, entry) => sum + entry.priceCents, 0) / 100).toFixed(2) });
  };
  const record = useRecordOfflinePayment(onDone);
  const set = (change: Partial<typeof fields>) => setFields((current) => ({ ...current, ...change }));
  const bind = textBinder(fields, set);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    record.mutate({
      videoIds: chosen.filter((item) => !item.bundle).map((item) => item.id),
      showcaseIds: chosen.filter((item) => item.bundle).map((item) => item.id),
      buyerName: fields.buyerName.trim(),
      buyerEmail: fields.buyerEmail.trim(),
      amountCents: Math.max(0, Math.round(Number(fields.amount) * 100) || 0),
    });
  };
  return (
    <form onSubmit={submit} className="space-y-4">
      <div>
        <Label htmlFor="offline-video">Video</Label>
        <Input
          type="search"
          aria-label="Find by title or tag"
          placeholder="Search titles and tags"
          className="mb-2"
          maxLength={200}
          {...videoSearchInput}
        />
        <Select
          id="offline-video"
          value=""
          onChange={(event) => {
            const video = videos.data?.videos.find((item) => item.id === event.target.value);
            if (video)
              choose({ id: video.id, title: video.title, priceCents: video.priceCents, bundle: false });
          }}
        >
          <option value="">{chosen.length ? 'Add another video' : 'Choose a video'}</option>
          {(videos.data?.videos ?? []).map((video) => (
            <option key={video.id} value={video.id}>
              {video.title}
            </option>
          ))}
        </Select>
      </div>
      {bundles.length > 0 && (
        <div>
          <Label htmlFor="offline-bundle">Showcase bundle</Label>
          <Select
            id="offline-bundle"
            value=""
            onChange={(event) => {
              const showcase = bundles.find((item) => item.id === event.target.value);
              if (showcase)
                choose({
                  id: showcase.id,
                  title: `${showcase.name} (bundle)`,
                  priceCents: showcase.bundlePriceCents ?? 0,
                  bundle: true,
                });
            }}
          >
            <option value="">Add a showcase bundle</option>
            {bundles.map((showcase) => (
              <option key={showcase.id} value={showcase.id}>
                {showcase.name} · {formatPrice(showcase.bundlePriceCents ?? 0)}
              </option>
            ))}
          </Select>
        </div>
      )}
      {chosen.length > 0 && (
        <ul aria-label="Paid for" className="space-y-1 text-sm text-zinc-200">
          {chosen.map((item) => (
            <li key={`${item.bundle}-${item.id}`} className="flex items-center justify-between gap-2">
              <span>
                {item.title} · {formatPrice(item.priceCents)}
              </span>
              <Button
                size="icon"
                variant="ghost"
                aria-label={`Remove ${item.title}`}
                onClick={() => setChosen(chosen.filter((entry) => entry !== item))}
              >
                <X className="size-4" aria-hidden />
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField id="offline-name" label="Buyer name" required {...bind('buyerName')} />
        <InputField id="offline-email" label="Buyer email" type="email" required {...bind('buyerEmail')} />
      </div>
      <InputField id="offline-amount" label="Amount paid (NZ$)" {...moneyInput('NZ$')} {...bind('amount')} />
      <FormSubmit
        disabled={
          chosen.length === 0 || !fields.buyerName.trim() || !fields.buyerEmail.trim() || record.isPending
        }
      >
        Record payment
      </FormSubmit>
    </form>
  );
}
