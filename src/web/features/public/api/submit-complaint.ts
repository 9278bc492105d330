import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SubmitComplaintInput, SubmitComplaintResponse } from '#contract/complaint.js';
import { api } from '../../../lib/api-client';
import { publicStatusQueryOptions } from './get-public-status';

/** A visitor's concern about the domain of the status page (spec §7). */
export const submitComplaint = (input: SubmitComplaintInput) =>
  api.post<SubmitComplaintResponse>('/api/public/submit-complaint', input);

/** After a concern is filed the page's complaint summary and audit trail are out of date. */
export function useSubmitComplaint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitComplaint,
    onSuccess: (_answer, input) =>
      queryClient.invalidateQueries({ queryKey: publicStatusQueryOptions(input.domain).queryKey }),
  });
}
