import { useState, type FormEvent } from 'react';
import { Pencil } from 'lucide-react';
import { Badge } from '../../components/ui/badge.tsx';
import { Button } from '../../components/ui/button.tsx';
import {
  Input,
  InputField,
  Label,
  moneyInput,
  Select,
  TextareaField,
  useTextInput,
} from '../../components/ui/input.tsx';
import { AdminSection } from '../admin-shell/admin-section.tsx';
import { cardClass } from '../../components/ui/card.tsx';
import { api } from '../../lib/api.ts';
import { PublishToggle } from './video-publishing.tsx';
import { formatPrice } from '@app/shared/format';
import { showcasePrivacyLabels, showcasePrivacyValues, type ShowcasePrivacyValue } from '@app/shared/privacy';
import { whole, type Showcase } from './shared.ts';
import { useAdminMutation } from '../admin-shell/admin-mutation.ts';
import { FormSubmit } from '../admin-shell/form-submit.tsx';

/** The showcases in the library's order, with inline order edits, and the showcase dialog's form. */
export function ShowcaseOrder({
  showcases,
  onEdit,
  onSaved,
}: {
  showcases: Showcase[];
  onEdit: (showcase: Showcase) => void;
  onSaved: () => Promise<unknown>;
}) {
  const [orders, setOrders] = useState<Record<string, string>>({});
  const save = useAdminMutation({
    mutationFn: ({ id, orderPriority }: { id: string; orderPriority: number }) =>
      api.patch(`/api/admin/showcases/${id}`, { orderPriority }),
    success: 'Showcase updated successfully',
    onSuccess: async (_result, { id }) => {
      setOrders(({ [id]: _saved, ...rest }) => rest);
      await onSaved();
    },
    failure: 'Failed to update showcase',
  });
  return (
    <AdminSection id="showcase-order" className={`${cardClass} p-6`} title="Showcase Order">
      <p className="text-sm text-zinc-400">Lower numbers appear first in the video library.</p>
      {showcases.length === 0 ? (
        <p className="mt-4 text-zinc-400">No showcases created yet</p>
      ) : (
        <ul className="mt-4 divide-y divide-white/10">
          {[...showcases]
            .sort((a, b) => a.orderPriority - b.orderPriority)
            .map((showcase) => {
              const draft = orders[showcase.id];
              const changed = draft !== undefined && whole(draft) !== showcase.orderPriority;
              return (
                <li key={showcase.id} className="flex flex-wrap items-center gap-3 py-3">
                  <span className="min-w-0 grow basis-48 break-words text-zinc-100">
                    {showcase.name} {!showcase.published && <Badge variant="neutral">Hidden</Badge>}{' '}
                    {showcase.privacy === 'unlisted' && <Badge variant="neutral">Unlisted</Badge>}
                    {showcase.privacy === 'code' && <Badge variant="neutral">Access code</Badge>}
                  </span>
                  <Input
                    type="number"
                    min={0}
                    aria-label={`Order of ${showcase.name}`}
                    className="w-24"
                    value={draft ?? String(showcase.orderPriority)}
                    onChange={(event) =>
                      setOrders((current) => ({ ...current, [showcase.id]: event.target.value }))
                    }
                  />
                  {changed && (
                    <Button
                      size="sm"
                      disabled={save.isPending}
                      onClick={() => save.mutate({ id: showcase.id, orderPriority: whole(draft) })}
                    >
                      Save
                    </Button>
                  )}
                  <PublishToggle showcase={showcase} onChanged={onSaved} />
                  <Button
                    size="icon"
                    variant="ghost"
                    aria-label={`Edit ${showcase.name}`}
                    onClick={() => onEdit(showcase)}
                  >
                    <Pencil className="size-4" aria-hidden />
                  </Button>
                </li>
              );
            })}
        </ul>
      )}
    </AdminSection>
  );
}

export function ShowcaseForm({ showcase, onDone }: { showcase?: Showcase; onDone: () => Promise<unknown> }) {
  const [name, nameInput] = useTextInput(showcase?.name ?? '');
  const [description, descriptionInput] = useTextInput(showcase?.description ?? '');
  const [order, orderInput] = useTextInput(String(showcase?.orderPriority ?? 0));
  const [slug, setSlug] = useState(showcase?.slug ?? '');
  const [indexed, setIndexed] = useState(showcase?.showVideosInSearchEngines ?? false);
  const [bundle, bundleInput] = useTextInput(
    showcase?.bundlePriceCents ? String(showcase.bundlePriceCents) : '',
  );
  const [privacy, setPrivacy] = useState<ShowcasePrivacyValue>(showcase?.privacy ?? 'public');
  // Empty keeps the code the showcase has; the current one is shown beside it to read out to the studio.
  const [accessCode, accessCodeInput] = useTextInput('');
  const currentCode = showcase?.accessCode ?? null;
  const save = useAdminMutation({
    mutationFn: () => {
      const body = {
        name: name.trim(),
        description: description.trim(),
        orderPriority: whole(order),
        // A new showcase's address is made from its name unless the owner typed one.
        ...(slug.trim() ? { slug: slug.trim() } : {}),
        showVideosInSearchEngines: indexed,
        // Empty (or 0): no "Buy all" offer.
        bundlePriceCents: whole(bundle) || null,
        privacy,
        ...(privacy === 'code' && accessCode.trim() ? { accessCode: accessCode.trim() } : {}),
      };
      return showcase
        ? api.patch(`/api/admin/showcases/${showcase.id}`, body)
        : api.post('/api/admin/showcases', body);
    },
    success: showcase ? 'Showcase updated successfully' : 'Showcase created successfully',
    onSuccess: async () => {
      await onDone();
    },
    failure: showcase ? 'Failed to update showcase' : 'Failed to create showcase',
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} className="space-y-4">
      <InputField id="showcase-name" label="Name" required {...nameInput} />
      <TextareaField id="showcase-description" label="Description" required rows={3} {...descriptionInput} />
      <div>
        <Label htmlFor="showcase-order">Display order</Label>
        <Input id="showcase-order" type="number" min={0} {...orderInput} />
        <p className="mt-1 text-xs text-zinc-500">Lower appears first.</p>
      </div>
      <div>
        <Label htmlFor="showcase-slug">Page address</Label>
        <Input
          id="showcase-slug"
          placeholder={showcase ? undefined : 'Made from the name'}
          value={slug}
          onChange={(event) => setSlug(event.target.value.toLowerCase())}
          aria-describedby="showcase-slug-help"
        />
        <p id="showcase-slug-help" className="mt-1 text-xs text-zinc-500">
          /videos/{slug.trim() || '…'}. Changing it keeps the old address working.
        </p>
      </div>
      <div>
        <Label htmlFor="showcase-bundle">Bundle price in cents</Label>
        <Input
          id="showcase-bundle"
          {...moneyInput('cents')}
          placeholder="No bundle"
          {...bundleInput}
          aria-describedby="showcase-bundle-help"
        />
        <p id="showcase-bundle-help" className="mt-1 text-xs text-zinc-500">
          {whole(bundle) > 0
            ? `The showcase page offers “Buy all its videos for ${formatPrice(whole(bundle))}”: every paid, unprotected video in it when the buyer pays.`
            : 'Leave empty for no bundle. With a price, the showcase page offers all its videos at once.'}
        </p>
      </div>
      <div>
        <Label htmlFor="showcase-privacy">Who can see it</Label>
        <Select
          id="showcase-privacy"
          value={privacy}
          onChange={(event) => setPrivacy(event.target.value as ShowcasePrivacyValue)}
          aria-describedby="showcase-privacy-help"
        >
          {showcasePrivacyValues.map((value) => (
            <option key={value} value={value}>
              {showcasePrivacyLabels[value]}
            </option>
          ))}
        </Select>
        <p id="showcase-privacy-help" className="mt-1 text-xs text-zinc-500">
          {privacy === 'public'
            ? 'Listed in the video library and its search.'
            : privacy === 'unlisted'
              ? 'Left out of the library, search and search engines: only people you send its link to find it.'
              : 'Left out like an unlisted showcase, and opened only by the code: a family types it once per device, for 30 days.'}
        </p>
      </div>
      {privacy === 'code' && (
        <div>
          <Label htmlFor="showcase-access-code">{currentCode ? 'New access code' : 'Access code'}</Label>
          <Input
            id="showcase-access-code"
            autoComplete="off"
            placeholder={currentCode ? 'Leave empty to keep the current code' : 'e.g. kowhai-2026'}
            required={!currentCode}
            {...accessCodeInput}
            aria-describedby="showcase-access-code-help"
          />
          <p id="showcase-access-code-help" className="mt-1 text-xs text-zinc-500">
            {currentCode ? (
              <>
                Current code: <strong className="font-mono text-zinc-200">{currentCode}</strong>. A new code
                closes the showcase on every device that used the old one.
              </>
            ) : showcase?.privacy === 'code' ? (
              'The current code can no longer be read (the site’s secret changed): set a new one.'
            ) : (
              'Letters, digits and dashes, at least 4. Give it to the studio to hand out.'
            )}
          </p>
        </div>
      )}
      <label className="flex items-start gap-2 text-sm text-zinc-200">
        <input
          type="checkbox"
          checked={indexed}
          onChange={(event) => setIndexed(event.target.checked)}
          className="mt-0.5 size-4 accent-spotlight-400"
        />
        <span>
          Show this showcase&apos;s videos in search engines
          <span className="block text-xs text-zinc-500">
            Off by default: performers are often children. The showcase page itself is always listed.
          </span>
        </span>
      </label>
      <FormSubmit disabled={!name.trim() || !description.trim()} pending={save.isPending}>
        Save Showcase
      </FormSubmit>
    </form>
  );
}
