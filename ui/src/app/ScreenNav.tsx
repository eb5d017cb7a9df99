import type { Screen } from './screenUrl';

/** The top bar's switch between the editor and the runs, and the Run button. */
export function ScreenNav({
  screen,
  canRun,
  onShow,
  onRun,
}: {
  screen: Screen;
  canRun: boolean;
  onShow: (screen: Screen) => void;
  onRun: () => void;
}) {
  return (
    <nav className="screen-nav" aria-label="Screens">
      <button type="button" className={`button is-small${screen.kind === 'editor' ? ' is-current' : ''}`} aria-current={screen.kind === 'editor' ? 'page' : undefined} onClick={() => onShow({ kind: 'editor' })}>
        Editor
      </button>
      <button type="button" className={`button is-small${screen.kind !== 'editor' ? ' is-current' : ''}`} aria-current={screen.kind !== 'editor' ? 'page' : undefined} onClick={() => onShow({ kind: 'runs' })}>
        Runs
      </button>
      {canRun ? (
        <button type="button" className="button is-small is-primary" data-testid="run-button" onClick={onRun} title="Start a run of this workflow">
          ▶ Run…
        </button>
      ) : null}
    </nav>
  );
}
