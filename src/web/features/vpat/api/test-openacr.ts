import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface OpenAcrCheck {
  data: { totalCriteria: number; chaptersCount: number; title: string; catalog?: string };
}

/** Spec §7: multipart field `openacr`; failures carry an `error` field. */
export function testOpenAcr(file: File) {
  const body = new FormData();
  body.append('openacr', file);
  return api.post<OpenAcrCheck>('/api/test-openacr', body);
}

export const useTestOpenAcr = () => useMutation({ mutationFn: testOpenAcr });
