import { useLocation } from 'wouter';
import { Check, ShoppingCart } from 'lucide-react';
import type { ShowcaseBundle } from '@app/shared/schemas';
import { Button, type ButtonProps } from '../../components/ui/button.tsx';
import { toast } from '../../components/ui/toast-store.ts';
import { purchasePath, purchaseStorage, type Video } from '../shop/queries.ts';
import { cart, type AddResult } from './cart.ts';
import { useCart } from './cart-store.ts';

const refusals: Partial<Record<AddResult, string>> = {
  'in-bundle': 'The showcase bundle in your cart already includes this video.',
  full: 'Your cart is full (50 items): check out, then start another.',
};

/**
 * "Add to cart" beside Buy Now. A protected video goes in with the token its password earned; without
 * one, the button leads to its page, where the password is asked first.
 */
export function AddToCartButton({
  video,
  showcaseName = null,
  token,
  ...props
}: { video: Video; showcaseName?: string | null; token?: string } & Omit<ButtonProps, 'onClick'>) {
  const [, navigate] = useLocation();
  const inCart = useCart().some((entry) => entry.kind === 'video' && entry.videoId === video.id);
  const label = inCart ? 'In cart' : 'Add to cart';
  const add = () => {
    const verificationToken = video.passwordProtected
      ? (token ?? purchaseStorage.token(video.id))
      : undefined;
    if (video.passwordProtected && !verificationToken) {
      toast({
        title: 'Password Required',
        description: 'Enter the video password, then add it to your cart.',
      });
      return navigate(purchasePath(video.id));
    }
    const result = cart.addVideo({
      kind: 'video',
      videoId: video.id,
      title: video.title,
      showcaseId: video.showcaseId,
      showcaseName,
      priceCents: video.priceCents,
      previewUrl: video.previewUrl,
      ...(verificationToken && { verificationToken }),
    });
    if (result === 'added') toast({ title: 'Added to cart', description: video.title, variant: 'success' });
    else if (refusals[result])
      toast({ title: 'Not added', description: refusals[result], variant: 'destructive' });
  };
  return (
    // The name starts with the words on the button (what a voice user says), then names the video.
    <Button variant="secondary" onClick={add} aria-label={`${label}, ${video.title}`} {...props}>
      {inCart ? <Check className="size-4" aria-hidden /> : <ShoppingCart className="size-4" aria-hidden />}
      {label}
    </Button>
  );
}

/** "Buy all N videos for NZ$X" for the showcase page's bundle. */
export function addBundleToCart(bundle: ShowcaseBundle) {
  const result = cart.addBundle({
    kind: 'bundle',
    showcaseId: bundle.showcaseId,
    name: bundle.name,
    priceCents: bundle.priceCents,
    videoCount: bundle.videoCount,
    videoIds: bundle.videoIds,
  });
  if (typeof result === 'number')
    toast({
      title: 'Bundle added to cart',
      description:
        result > 0
          ? `All ${bundle.videoCount} videos of ${bundle.name}. It includes ${result === 1 ? 'a video' : `${result} videos`} you had added, so ${result === 1 ? 'it was' : 'they were'} taken out.`
          : `All ${bundle.videoCount} videos of ${bundle.name}.`,
      variant: 'success',
    });
  else if (result === 'already') toast({ title: 'Already in your cart', description: bundle.name });
  else toast({ title: 'Not added', description: refusals[result], variant: 'destructive' });
}
