/**
 * The page's address without the parameters that carry credentials: `launch` (the one-time
 * launch token of `heddle serve`'s link) and `token` (which older links carried). The server
 * already answers a launch link with a redirect to the address without it; this keeps either
 * out of the address bar and history should one still arrive (a bookmark, a proxy).
 * `null` when there is nothing to remove.
 */
export function addressWithoutCredentials(href: string): string | null {
  const url = new URL(href);
  let removed = false;
  for (const name of ['launch', 'token']) {
    if (url.searchParams.has(name)) {
      url.searchParams.delete(name);
      removed = true;
    }
  }
  return removed ? url.toString() : null;
}

/** Replaces the current history entry with the address without credentials. */
export function dropCredentialsFromAddress(): void {
  const next = addressWithoutCredentials(window.location.href);
  if (next !== null) window.history.replaceState(window.history.state, '', next);
}
