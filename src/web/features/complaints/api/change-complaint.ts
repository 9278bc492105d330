import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  AssignComplaintRequest,
  ComplaintReplyInput,
  ComplaintResponse,
  UpdateComplaintNotesRequest,
  UpdateComplaintStatusRequest,
} from '#contract/complaint.js';
import { request } from '../../../lib/api-client';
import { complaintsKey } from './list-complaints';

/** The calls that change one complaint (spec dashboard-area §7); each refreshes the inbox. */

const complaintPath = (id: string, action: string) =>
  `/api/complaints/${encodeURIComponent(id)}/${action}`;

export const updateComplaintStatus = (id: string, body: UpdateComplaintStatusRequest) =>
  request<ComplaintResponse>('PATCH', complaintPath(id, 'status'), { body });

export const updateComplaintNotes = (id: string, body: UpdateComplaintNotesRequest) =>
  request<ComplaintResponse>('PATCH', complaintPath(id, 'notes'), { body });

export const assignComplaint = (id: string, body: AssignComplaintRequest) =>
  request<ComplaintResponse>('PATCH', complaintPath(id, 'assignee'), { body });

export const replyToComplaint = (id: string, body: ComplaintReplyInput) =>
  request<ComplaintResponse>('POST', complaintPath(id, 'reply'), { body });

function useComplaintMutation<Input>(
  send: (id: string, body: Input) => Promise<ComplaintResponse>,
  id: string,
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Input) => send(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: complaintsKey }),
  });
}

export const useUpdateComplaintStatus = (id: string) =>
  useComplaintMutation(updateComplaintStatus, id);
export const useUpdateComplaintNotes = (id: string) =>
  useComplaintMutation(updateComplaintNotes, id);
export const useAssignComplaint = (id: string) => useComplaintMutation(assignComplaint, id);
export const useReplyToComplaint = (id: string) => useComplaintMutation(replyToComplaint, id);
