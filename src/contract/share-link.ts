import { z } from 'zod';

/**
 * Share links of private scans: the owner makes one (`POST /api/scans/{id}/share-link`) and
 * anyone holding it reads the scan's documents; `DELETE` on the same path revokes it. The token
 * travels as `?share=` on every document route of the scan.
 */

/** `?share=`: a share link's token; absent for the owner and for public scans. */
export const ShareTokenQuery = z.object({
  share: z.string().max(200, 'A share token is at most 200 characters').optional(),
});

export const ShareLinkResponse = z.object({
  /** Opens the scan's HTML report; the other documents take the same `?share=`. */
  url: z.string(),
  /** The token alone, for building links to the other documents. */
  token: z.string(),
});
export type ShareLinkResponse = z.infer<typeof ShareLinkResponse>;
