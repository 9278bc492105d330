import { Download, FileText } from 'lucide-react';
import type { DocumentLink } from '#contract/dashboard.js';
import { messageOf } from '../../../lib/api-client';
import { toast } from '../../../lib/toast-store';
import { useDocumentDownload } from '../api/download-document';

const linkClass =
  'inline-flex items-center gap-1 rounded-md border border-slate-400 bg-white px-2 py-1 text-sm font-semibold text-slate-900 hover:bg-slate-100';

/**
 * The documents of one scan or audit: links for the files the server serves, a button for the
 * VPAT it drafts on request. `context` names what they belong to, for screen readers.
 */
export function DocumentLinks({ links, context }: { links: DocumentLink[]; context: string }) {
  const download = useDocumentDownload();
  return (
    <ul className="flex flex-wrap gap-2" aria-label={`Documents of ${context}`}>
      {links.map((link) => (
        <li key={link.format}>
          {link.method === 'GET' ? (
            <a
              className={linkClass}
              href={link.href}
              {...(link.format === 'html' || link.format === 'pdf'
                ? { target: '_blank', rel: 'noopener' }
                : { download: link.fileName })}
            >
              <FileText aria-hidden="true" className="h-4 w-4" />
              {link.label}
              <span className="sr-only"> of {context}</span>
              {(link.format === 'html' || link.format === 'pdf') && (
                <span className="sr-only"> (opens in a new tab)</span>
              )}
            </a>
          ) : (
            <button
              type="button"
              className={linkClass}
              disabled={download.isPending}
              onClick={() =>
                download.mutate(link, {
                  onError: (error) =>
                    toast({
                      title: 'Generation failed',
                      description: messageOf(error, 'Failed to generate VPAT report'),
                      variant: 'destructive',
                    }),
                })
              }
            >
              <Download aria-hidden="true" className="h-4 w-4" />
              {link.label}
              <span className="sr-only"> of {context}</span>
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}
