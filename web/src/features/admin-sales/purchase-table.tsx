import { FileText, Mail, Undo2 } from 'lucide-react';
import { formatDateTime, formatMoney } from '@app/shared/format';
import type { AdminPurchase, AdminPurchaseList } from '@app/shared/schemas';
import type { UseQueryResult } from '@tanstack/react-query';
import { Badge } from '../../components/ui/badge.tsx';
import { TableCell, TableRow } from '../../components/ui/table.tsx';
import { QueryTable } from '../admin-shell/query-state.tsx';
import { RowActionButton } from '../admin-shell/row-actions.tsx';
import { useResendReceipt } from './queries.ts';

const statusColour: Record<string, 'success' | 'danger' | 'neutral' | 'default'> = {
  paid: 'success',
  failed: 'danger',
  refunded: 'danger',
};

/** The purchases the filters match: what each bought, its documents, and resend or refund. */
export function PurchaseTable({
  list,
  onRefund,
}: {
  list: UseQueryResult<AdminPurchaseList>;
  onRefund: (purchase: AdminPurchase) => void;
}) {
  const resend = useResendReceipt();
  return (
    <QueryTable
      label="Purchases"
      className="mt-6"
      query={list}
      error="Failed to load sales"
      loading="Loading sales..."
      rows={(data) => data.purchases}
      empty={<p className="text-zinc-400">No purchases match.</p>}
      tableClassName="min-w-[48rem]"
      columns={[
        { label: 'Date' },
        { label: 'Buyer' },
        { label: 'Videos' },
        { label: 'Amount' },
        { label: 'Status' },
        { label: 'Actions', hidden: true },
      ]}
    >
      {(purchase) => (
        <TableRow key={purchase.id}>
          <TableCell className="whitespace-nowrap text-zinc-400">
            {formatDateTime(purchase.createdAt)}
          </TableCell>
          <TableCell>
            <div className="text-white">{purchase.buyerName}</div>
            <div className="text-xs text-zinc-500">{purchase.buyerEmail}</div>
          </TableCell>
          <TableCell className="text-zinc-300">
            <PurchaseItems purchase={purchase} />
            {purchase.documents?.map((document) => (
              <a
                key={document.id}
                href={document.url}
                target="_blank"
                rel="noreferrer"
                className="mt-1 flex items-center gap-1 text-xs text-spotlight-300 underline"
              >
                <FileText className="size-3" aria-hidden /> {document.title}
              </a>
            ))}
          </TableCell>
          <TableCell className="text-zinc-300">{formatMoney(purchase.amountCents)}</TableCell>
          <TableCell>
            <Badge variant={statusColour[purchase.status] ?? 'neutral'}>{purchase.status}</Badge>
            {purchase.source === 'offline' && <span className="ml-2 text-xs text-zinc-500">offline</span>}
          </TableCell>
          <TableCell>
            {purchase.status === 'paid' && (
              <RowActionButton icon={Mail} busy={resend.isPending} onClick={() => resend.mutate(purchase.id)}>
                Resend
              </RowActionButton>
            )}
            {purchase.status === 'paid' && purchase.source === 'offline' && (
              <RowActionButton icon={Undo2} busy={false} onClick={() => onRefund(purchase)}>
                Refund
              </RowActionButton>
            )}
          </TableCell>
        </TableRow>
      )}
    </QueryTable>
  );
}

/** What a purchase bought: its videos (a bundle's under the showcase's name), counted. */
function PurchaseItems({ purchase }: { purchase: AdminPurchase }) {
  const shown = purchase.items.slice(0, 4);
  return (
    <div>
      {purchase.itemCount > 1 && (
        <div className="text-xs font-semibold text-zinc-400">{purchase.itemCount} videos</div>
      )}
      <ul className="space-y-0.5">
        {shown.map((item, index) => (
          <li key={item.videoId ?? `bundle-${index}`}>
            {item.title}
            {item.bundleName && <span className="text-xs text-zinc-500"> · {item.bundleName} bundle</span>}
            {purchase.itemCount > 1 && (
              <span className="text-xs text-zinc-500"> · {formatMoney(item.amountCents)}</span>
            )}
          </li>
        ))}
      </ul>
      {purchase.itemCount > shown.length && (
        <div className="text-xs text-zinc-500">and {purchase.itemCount - shown.length} more</div>
      )}
    </div>
  );
}
