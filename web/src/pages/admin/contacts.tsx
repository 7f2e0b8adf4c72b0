import { useQuery } from '@tanstack/react-query';
import { Mail } from 'lucide-react';
import { contactEventTypeLabel } from '@app/shared/constants';
import { formatDateTime } from '@app/shared/format';
import { Badge } from '../../components/ui/badge.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { api, errorMessage } from '../../lib/api.ts';
import { AdminLayout } from '../../features/admin/admin-layout.tsx';

interface Contact {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  eventType: string | null;
  message: string;
  createdAt: string;
}

export default function AdminContactsPage() {
  const contacts = useQuery({
    queryKey: ['/api/admin/contacts'],
    queryFn: () => api.get<Contact[]>('/api/admin/contacts'),
    refetchInterval: 30_000,
  });
  return (
    <AdminLayout
      title="Contact Submissions"
      actions={
        <>
          {contacts.isFetching && <span className="text-sm text-zinc-400">Refreshing...</span>}
          {contacts.data && <Badge variant="neutral">{contacts.data.length} total</Badge>}
        </>
      }
    >
      {contacts.isError ? (
        <p className="text-red-300">
          Error loading contacts: {errorMessage(contacts.error, 'Failed to fetch contacts')}
        </p>
      ) : contacts.isPending ? (
        <div className="space-y-4">
          {Array.from({ length: 3 }, (_, index) => (
            <Skeleton key={index} className="h-36 rounded-2xl" />
          ))}
        </div>
      ) : contacts.data.length === 0 ? (
        <div className="rounded-2xl border border-white/10 bg-stage-800/70 p-10 text-center">
          <p className="text-lg font-semibold text-white">No contact submissions yet</p>
          <p className="mt-2 text-zinc-400">
            Contact form submissions will appear here when visitors use the contact form on your website.
          </p>
        </div>
      ) : (
        <ul className="space-y-4">
          {contacts.data.map((contact) => (
            <li key={contact.id} className="rounded-2xl border border-white/10 bg-stage-800/70 p-6">
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
      )}
    </AdminLayout>
  );
}
