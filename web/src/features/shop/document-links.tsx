import { FileText } from 'lucide-react';
import { formatEventDate, formatMoney } from '@app/shared/format';
import type { DocumentLink } from '@app/shared/schemas';

/** A purchase's receipt or tax invoice and any credit notes, each opening its PDF (decision 029). */
export function DocumentLinks({
  documents,
  heading,
}: {
  documents: DocumentLink[] | undefined;
  heading?: string;
}) {
  if (!documents?.length) return null;
  return (
    <section aria-label={heading ?? 'Your receipts'} className="mt-6 text-left">
      {heading && <h2 className="mb-3 text-xl font-semibold text-white">{heading}</h2>}
      <ul className="space-y-2 text-sm">
        {documents.map((document) => (
          <li key={document.id}>
            <a
              href={document.url}
              target="_blank"
              rel="noreferrer"
              className="inline-flex items-center gap-2 text-spotlight-300 underline"
            >
              <FileText className="size-4" aria-hidden />
              {document.title} (PDF)
            </a>
            <span className="ml-2 text-zinc-400">
              {formatEventDate(document.issuedOn)} · {formatMoney(document.totalCents)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
