import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  AddOnCatalogueResponse,
  AddOnPagesResponse,
  AddOnRefundRequest,
} from '#contract/add-ons.js';
import type {
  AddOnPurchaseRequest,
  AddOnPurchaseResponse,
  PurchasedAddOn,
} from '#contract/domains.js';
import { api } from '../../../lib/api-client';
import { domainKeys } from './keys';

/** The add-ons bought for one domain, newest first, each with its download address. */
export const listAddOns = (domain: string) =>
  api.get<PurchasedAddOn[]>(`/api/add-ons?domain=${encodeURIComponent(domain)}`);

export const addOnsQueryOptions = (domain: string) =>
  queryOptions({ queryKey: domainKeys.addOns(domain), queryFn: () => listAddOns(domain) });

export function useAddOns(domain: string, enabled: boolean) {
  return useQuery({ ...addOnsQueryOptions(domain), enabled });
}

/** The add-ons on sale on this server (AI products only where an AI endpoint is configured). */
export function useAddOnCatalogue() {
  return useQuery({
    queryKey: ['add-ons', 'catalogue'],
    queryFn: () => api.get<AddOnCatalogueResponse>('/api/add-ons/catalogue'),
    staleTime: 5 * 60_000,
  });
}

/** The scanned pages of the domain a document bought now is made from. */
export const getAddOnPages = (domain: string) =>
  api.get<AddOnPagesResponse>(`/api/add-ons/pages?domain=${encodeURIComponent(domain)}`);

export function useAddOnPages(domain: string) {
  return useQuery({
    queryKey: [...domainKeys.addOns(domain), 'pages'],
    queryFn: () => getAddOnPages(domain),
    staleTime: 0,
  });
}

/** Spec §7: after the payment succeeded; the server prices it again from the catalogue. */
export const purchaseAddOn = (input: AddOnPurchaseRequest) =>
  api.post<AddOnPurchaseResponse>('/api/add-ons/purchase', input);

export function usePurchaseAddOn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: purchaseAddOn,
    onSettled: (_answer, _error, input) =>
      queryClient.invalidateQueries({ queryKey: domainKeys.addOns(input.domain) }),
  });
}

/**
 * The terms' refund of a report rejected in a review (ADR 0042): granted at once. The add-on's
 * list shows it refunded and Settings → Billing lists the credit note.
 */
export const refundAddOn = (id: string, input: AddOnRefundRequest) =>
  api.post<PurchasedAddOn>(`/api/add-ons/${encodeURIComponent(id)}/refund`, input);

export function useRefundAddOn(domain: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) => refundAddOn(id, { reason }),
    onSettled: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: domainKeys.addOns(domain) }),
        // Settings → Billing's list, whose key its feature owns: the credit note is new there.
        queryClient.invalidateQueries({ queryKey: ['billing', 'invoices'] }),
      ]);
    },
  });
}
