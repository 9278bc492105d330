import { useMutation } from '@tanstack/react-query';
import type { DocumentLink } from '#contract/dashboard.js';
import { requestFile } from '../../../lib/api-client';
import { saveFile } from '../../../lib/download';

/**
 * A document drafted on request (the VPAT: a POST with the scan's id) is fetched and saved; every
 * other document is a plain link to its address.
 */
export function useDocumentDownload() {
  return useMutation({
    mutationFn: (link: DocumentLink) =>
      requestFile('POST', link.href, link.fileName, { body: link.body }),
    onSuccess: ({ blob, filename }) => saveFile(blob, filename),
  });
}
