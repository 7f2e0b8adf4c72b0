import { useEffect, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { AdminContactList } from '@app/shared/schemas';
import { Mail } from 'lucide-react';
import { contactEventTypeLabel } from '@app/shared/constants';
import { formatDateTime } from '@app/shared/format';
import { Badge } from '../../components/ui/badge.tsx';
import { cardClass, EmptyCard } from '../../components/ui/card.tsx';
import { SearchInput } from '../../components/ui/input.tsx';
import { PageNav } from '../../components/ui/page-nav.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { api } from '../../lib/api.ts';
import { AdminLayout } from '../../features/admin-shell/admin-layout.tsx';
import { QueryState } from '../../features/admin-shell/query-state.tsx';

const PAGE_SIZE = 50;

export default function AdminContactsPage() {
  const [text, setText] = useState('');
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  useEffect(() => {
    const timer = setTimeout(() => {
      setQ(text.trim());
      setPage(1);
    }, 300);
    return () => clearTimeout(timer);
  }, [text]);
  const url = `/api/admin/contacts?page=${page}&pageSize=${PAGE_SIZE}${q ? `&q=${encodeURIComponent(q)}` : ''}`;
  // The page in view refreshes every 30 s, so new enquiries appear on the first page.
  const contacts = useQuery({
    queryKey: ['/api/admin/contacts', url],
    queryFn: () => api.get<AdminContactList>(url),
    refetchInterval: 30_000,
    placeholderData: keepPreviousData,
  });
  const pageCount = Math.max(1, Math.ceil((contacts.data?.total ?? 0) / PAGE_SIZE));
  return (
    <AdminLayout
      title="Contact Submissions"
      actions={
        <>
          {contacts.isFetching && <span className="text-sm text-zinc-400">Refreshing...</span>}
          {contacts.data && <Badge variant="neutral">{contacts.data.total} total</Badge>}
        </>
      }
    >
      <SearchInput
        label="Search contacts"
        placeholder="Search names, e-mail or message"
        className="mb-6 max-w-md"
        value={text}
        onSearch={setText}
      />
      <QueryState
        query={contacts}
        error="Error loading contacts"
        fallback="Failed to fetch contacts"
        loading={
          <div className="space-y-4">
            {Array.from({ length: 3 }, (_, index) => (
              <Skeleton key={index} className="h-36 rounded-2xl" />
            ))}
          </div>
        }
        isEmpty={(list) => list.total === 0}
        empty={
          q ? (
            <p className="text-zinc-400">No contacts match “{q}”.</p>
          ) : (
            <EmptyCard title="No contact submissions yet">
              <p className="mt-2 text-zinc-400">
                Contact form submissions will appear here when visitors use the contact form on your website.
              </p>
            </EmptyCard>
          )
        }
      >
        {(list) => (
          <ul className="space-y-4">
            {list.contacts.map((contact) => (
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
        )}
      </QueryState>
      <PageNav label="Contact pages" page={page} pageCount={pageCount} onPage={setPage} />
    </AdminLayout>
  );
}
