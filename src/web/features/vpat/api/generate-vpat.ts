import { useMutation } from '@tanstack/react-query';
import { requestFile } from '../../../lib/api-client';
import { saveFile } from '../../../lib/download';

/** A VPAT 2.4 Word file from an OpenACR upload (default name vpat-report.docx). */
export function generateVpat(file: File) {
  const body = new FormData();
  body.append('openacr', file);
  return requestFile('POST', '/api/generate-vpat', 'vpat-report.docx', { body });
}

export function useGenerateVpat() {
  return useMutation({
    mutationFn: generateVpat,
    onSuccess: ({ blob, filename }) => saveFile(blob, filename),
  });
}
