import { useEffect, useState } from 'react';
import { Badge } from '../../components/ui/badge.tsx';
import { EmptyCard } from '../../components/ui/card.tsx';
import { SearchInput } from '../../components/ui/input.tsx';
import { PageNav } from '../../components/ui/page-nav.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { AdminLayout } from '../admin-shell/admin-layout.tsx';
import { QueryState } from '../admin-shell/query-state.tsx';
import { ContactList } from './contact-list.tsx';
import { PAGE_SIZE, useContacts } from './queries.ts';

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
  const contacts = useContacts(q, page);
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
        {(list) => <ContactList contacts={list.contacts} />}
      </QueryState>
      <PageNav label="Contact pages" page={page} pageCount={pageCount} onPage={setPage} />
    </AdminLayout>
  );
}
