import { useState } from 'react';
import { Check, ImageOff } from 'lucide-react';
import { Button } from '../../components/ui/button.tsx';
import { Dialog, DialogContent } from '../../components/ui/dialog.tsx';
import { Input, Label } from '../../components/ui/input.tsx';
import { cn } from '../../lib/cn.ts';

/** The nine pictures that ship with the site (SPEC.md section 2). */
export const builtInEventImages = Array.from(
  { length: 9 },
  (_, index) => `/api/images/attached_assets/event-${String(index + 1).padStart(2, '0')}.jpg`,
);

/** An image, or a placeholder when it cannot be shown. */
export function Thumbnail({ src, className }: { src: string; className?: string }) {
  const [failed, setFailed] = useState(false);
  return failed || !src ? (
    <div className={cn('flex items-center justify-center bg-stage-700 text-zinc-500', className)}>
      <ImageOff className="size-6" aria-label="Image not available" />
    </div>
  ) : (
    <img src={src} alt="" onError={() => setFailed(true)} className={cn('object-cover', className)} />
  );
}

/** A typed image URL, or one chosen in the Browse dialog (a custom URL or a built-in picture). */
export function ImagePicker({
  id,
  value,
  onChange,
  invalid,
}: {
  id: string;
  value: string;
  onChange: (url: string) => void;
  invalid?: boolean;
}) {
  const [open, setOpen] = useState(false);
  const [custom, setCustom] = useState('');
  return (
    <div>
      <div className="flex gap-2">
        <Input
          id={id}
          value={value}
          aria-invalid={invalid || undefined}
          placeholder="/api/images/... or https://..."
          onChange={(event) => onChange(event.target.value)}
        />
        <Button variant="secondary" onClick={() => setOpen(true)}>
          Browse
        </Button>
      </div>
      {value && (
        <div className="mt-2 flex items-center gap-3 text-sm text-zinc-400">
          <Thumbnail key={value} src={value} className="h-12 w-20 rounded-md" />
          <span className="flex items-center gap-1 text-emerald-300">
            <Check className="size-4" aria-hidden /> Selected
          </span>
        </div>
      )}
      <Dialog open={open} onOpenChange={setOpen}>
        <DialogContent title="Choose an Event Image" className="max-w-2xl">
          <Label htmlFor={`${id}-custom`}>Custom image URL</Label>
          <div className="flex gap-2">
            <Input
              id={`${id}-custom`}
              value={custom}
              onChange={(event) => setCustom(event.target.value)}
              placeholder="https://..."
            />
            <Button
              disabled={!custom.trim()}
              onClick={() => {
                onChange(custom.trim());
                setOpen(false);
              }}
            >
              Use URL
            </Button>
          </div>
          <ul className="mt-5 grid grid-cols-2 gap-3 md:grid-cols-3">
            {builtInEventImages.map((src, index) => (
              <li key={src}>
                <button
                  type="button"
                  aria-label={`Built-in image ${index + 1}`}
                  aria-pressed={value === src}
                  onClick={() => {
                    onChange(src);
                    setOpen(false);
                  }}
                  className={cn(
                    'relative block w-full overflow-hidden rounded-lg ring-2',
                    value === src ? 'ring-spotlight-400' : 'ring-transparent hover:ring-white/30',
                  )}
                >
                  <Thumbnail src={`${src}?w=320`} className="aspect-video w-full" />
                  {value === src && (
                    <span className="absolute top-1 right-1 rounded bg-spotlight-400 px-1.5 text-xs font-bold text-stage-950">
                      Selected
                    </span>
                  )}
                </button>
              </li>
            ))}
          </ul>
        </DialogContent>
      </Dialog>
    </div>
  );
}
