import { useMutation } from '@tanstack/react-query';
import { requestFile } from '../../../lib/api-client';
import { saveFile } from '../../../lib/download';

/** A VPAT 2.4 Word file drafted from the scan (spec §7, default name vpat-report.docx). */
export const generateVpatFromScan = (scanId: string) =>
  requestFile('POST', '/api/generate-vpat-from-scan', 'vpat-report.docx', { body: { scanId } });

/** The VPAT template with the scan's rows filled in (default vpat-template-filled.docx). */
export const fillVpatTemplate = (scanId: string) =>
  requestFile('POST', '/api/fill-vpat-template', 'vpat-template-filled.docx', {
    body: { scanId },
  });

export function useVpatDownload(kind: 'generate' | 'template') {
  return useMutation({
    mutationFn: (scanId: string) =>
      kind === 'generate' ? generateVpatFromScan(scanId) : fillVpatTemplate(scanId),
    onSuccess: ({ blob, filename }) => saveFile(blob, filename),
  });
}
