import { Mail } from 'lucide-react';
import { contactEventTypeLabel } from '@app/shared/constants';
import { formatDateTime } from '@app/shared/format';
import type { AdminContactList } from '@app/shared/schemas';
import { Badge } from '../../components/ui/badge.tsx';
import { cardClass } from '../../components/ui/card.tsx';

/** Enquiries as cards: who, how to answer, what about, when, and their message. */
export function ContactList({ contacts }: { contacts: AdminContactList['contacts'] }) {
  return (
    <ul className="space-y-4">
      {contacts.map((contact) => (
        <li key={contact.id} className={`${cardClass} p-6`}>
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div>
              <h2 className="font-sans text-lg font-semibold text-white">
                {contact.firstName} {contact.lastName}
              </h2>
              <a
                href={`mailto:${contact.email}`}
                className="mt-1 inline-flex items-center gap-1 text-sm text-spotlight-300 hover:underline"
              >
                <Mail className="size-4" aria-hidden /> {contact.email}
              </a>
            </div>
            <div className="flex flex-col items-start gap-2 sm:items-end">
              <Badge>{contactEventTypeLabel(contact.eventType)}</Badge>
              <time dateTime={contact.createdAt} className="text-sm text-zinc-400">
                {formatDateTime(contact.createdAt)}
              </time>
            </div>
          </div>
          {contact.message && (
            <div className="mt-4 border-t border-white/10 pt-4">
              <h3 className="text-xs font-semibold tracking-wider text-zinc-500 uppercase">Message</h3>
              <p className="mt-2 whitespace-pre-wrap text-zinc-200">{contact.message}</p>
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}
