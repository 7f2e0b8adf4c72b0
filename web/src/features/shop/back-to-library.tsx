import { Link } from 'wouter';
import { ArrowLeft } from 'lucide-react';

/** The link back to the video library at the top of a showcase's, dancer's or studio's page. */
export function BackToLibrary() {
  return (
    <Link href="/videos" className="inline-flex items-center gap-2 text-sm text-zinc-400 hover:text-white">
      <ArrowLeft className="size-4" aria-hidden /> Video Library
    </Link>
  );
}
