import { useState } from 'react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { CloseButton } from '../../components/ui/close-button.tsx';
import { imageSrcSet, imageUrl } from '@app/shared/images';
import { imageProtection } from './protected-image.tsx';
import type { PortfolioImage } from './queries.ts';

/** Full-screen view of one image: Escape, the backdrop or the close button closes it; focus stays inside. */
export default function Lightbox({ image, onClose }: { image: PortfolioImage | null; onClose: () => void }) {
  // There is no Dialog.Trigger (the tile opens it), so focus is handed back to the tile by hand.
  const [opener] = useState(() => document.activeElement as HTMLElement | null);
  return (
    <DialogPrimitive.Root open={image !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-black/90" />
        <DialogPrimitive.Content
          className="fixed inset-0 z-50 flex flex-col items-center justify-center p-4 outline-none"
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            opener?.focus();
          }}
          onClick={(event) => {
            if (event.target === event.currentTarget) onClose();
          }}
          {...imageProtection}
        >
          {image && (
            <>
              <DialogPrimitive.Title className="sr-only">{image.alt}</DialogPrimitive.Title>
              <img
                src={imageUrl(image.imageUrl, 1920)}
                srcSet={imageSrcSet(image.imageUrl)}
                sizes="100vw"
                alt={image.alt}
                // The picture's own proportions reserve its box until it loads.
                width={image.width ?? undefined}
                height={image.height ?? undefined}
                draggable={false}
                className="h-auto max-h-[85vh] max-w-full rounded-lg object-contain select-none"
              />
              <DialogPrimitive.Description className="mt-4 text-center text-zinc-200">
                {image.alt}
              </DialogPrimitive.Description>
            </>
          )}
          <CloseButton as={DialogPrimitive.Close} look="lightbox" />
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
