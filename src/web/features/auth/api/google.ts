/** Where the browser goes to sign in with Google (spec §7: GET /api/auth/google/initiate). */
export const googleSignInHref = '/api/auth/google/initiate';
