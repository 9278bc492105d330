import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  BuyerDetails,
  BuyerDetailsUpdate,
  CardResponse,
  ConfirmCardInput,
  InvoiceListResponse,
  ReplaceCardInput,
  ReplaceCardResponse,
} from '#contract/invoice.js';
import { api } from '../../../lib/api-client';

/** Settings → Billing: invoices, who is billed, and the card on file (owners and admins). */

export const invoicesQueryOptions = () =>
  queryOptions({
    queryKey: ['billing', 'invoices'],
    queryFn: () => api.get<InvoiceListResponse>('/api/billing/invoices'),
  });
export const useInvoices = () => useQuery(invoicesQueryOptions());

export const buyerDetailsQueryOptions = () =>
  queryOptions({
    queryKey: ['billing', 'details'],
    queryFn: () => api.get<BuyerDetails>('/api/billing/details'),
  });
export const useBuyerDetails = () => useQuery(buyerDetailsQueryOptions());

export function useSaveBuyerDetails() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BuyerDetailsUpdate) => api.put<BuyerDetails>('/api/billing/details', input),
    onSuccess: (saved) => queryClient.setQueryData(buyerDetailsQueryOptions().queryKey, saved),
  });
}

export const cardQueryOptions = () =>
  queryOptions({
    queryKey: ['billing', 'card'],
    queryFn: () => api.get<CardResponse>('/api/billing/card'),
  });
export const useCardOnFile = () => useQuery(cardQueryOptions());

export function useReplaceCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ReplaceCardInput) =>
      api.post<ReplaceCardResponse>('/api/billing/card', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['billing'] }),
  });
}

/** Stripe mode: after Stripe.js confirmed the new card, the server reads it back and keeps it. */
export function useConfirmCard() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ConfirmCardInput) =>
      api.post<ReplaceCardResponse>('/api/billing/card/confirm', input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['billing'] }),
  });
}
