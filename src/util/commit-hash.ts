/** A git commit named by its hash, full (40 hex digits) or abbreviated to at least 7, as git and GitHub show. */
export const COMMIT_HASH = /^[0-9a-f]{7,40}$/i;
