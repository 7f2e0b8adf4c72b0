import type { ReactNode } from 'react';
import { Mail, MapPin } from 'lucide-react';
import { publicConfig } from '../../lib/public-config.ts';

// The footer's short list and the contact section's larger panel.
const looks = {
  footer: {
    line: 'flex gap-2',
    icon: 'size-4 shrink-0 text-spotlight-400',
    link: 'hover:text-spotlight-300',
  },
  panel: {
    line: 'flex gap-3 text-zinc-300',
    icon: 'size-5 shrink-0 text-spotlight-400',
    link: 'text-spotlight-300 hover:underline',
  },
} as const;

/**
 * Where the owner is based (`place`, in the words of where it stands) and their e-mail, each with its
 * icon; the e-mail only where the site has one. `as`: the element of each line (a list item or a paragraph).
 */
export function ContactDetails({
  look,
  as: Line,
  place,
}: {
  look: keyof typeof looks;
  as: 'li' | 'p';
  place: ReactNode;
}) {
  const { contactEmail } = publicConfig();
  const { line, icon, link } = looks[look];
  return (
    <>
      <Line className={line}>
        <MapPin className={icon} aria-hidden />
        {place}
      </Line>
      {contactEmail && (
        <Line className={line}>
          <Mail className={icon} aria-hidden />
          <a href={`mailto:${contactEmail}`} className={`break-all ${link}`}>
            {contactEmail}
          </a>
        </Line>
      )}
    </>
  );
}
