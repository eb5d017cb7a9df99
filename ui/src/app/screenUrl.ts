/** Which screen the app shows: the workflow editor, the list of runs, or one run. */
export type Screen = { kind: 'editor' } | { kind: 'runs' } | { kind: 'run'; runId: string };

/** The screen a URL's query asks for (`?run=ID`, `?runs`); the editor otherwise. */
export function screenFromSearch(search: string): Screen {
  const params = new URLSearchParams(search);
  const run = params.get('run');
  if (run !== null && run.trim() !== '') return { kind: 'run', runId: run.trim() };
  if (params.has('runs')) return { kind: 'runs' };
  return { kind: 'editor' };
}

/** `href` with its query saying `screen` (other parameters, such as `file`, are kept). */
export function urlWithScreen(href: string, screen: Screen): string {
  const url = new URL(href);
  url.searchParams.delete('run');
  url.searchParams.delete('runs');
  if (screen.kind === 'run') url.searchParams.set('run', screen.runId);
  if (screen.kind === 'runs') url.searchParams.set('runs', '');
  return url.toString().replace(/([?&]runs)=(?=&|$)/, '$1');
}
