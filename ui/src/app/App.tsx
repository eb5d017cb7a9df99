import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useApi } from '../api/ApiContext';
import { toApiError } from '../api/apiError';
import { OpenDialog } from '../open/OpenDialog';
import { OpenPanel } from '../open/OpenPanel';
import { useWorkspaceWorkflows } from '../open/useWorkspaceWorkflows';
import { startupFile, urlWithFile } from './startupFile';
import { TopBar } from './TopBar';
import { ThemeToggle } from '../theme/ThemeToggle';
import { ThemeContext, useTheme } from '../theme/useTheme';
import { useLaunchInfo } from './useLaunchInfo';
import { DiskChangeBanner } from './DiskChangeBanner';
import { useDiskWatch } from './useDiskWatch';
import { useLayoutSidecar } from './useLayoutSidecar';
import { useEditingShortcuts } from './useEditingShortcuts';
import { ShortcutsHelp } from './ShortcutsHelp';
import { useWorkflowEditing } from './useWorkflowEditing';
import { useWorkflowSession } from './useWorkflowSession';
import { WorkflowScreen } from './WorkflowScreen';
import { ScreenNav } from './ScreenNav';
import { screenFromSearch, urlWithScreen, type Screen } from './screenUrl';
import { useNow } from '../runs/useNow';
import { folderToList } from './workspaceListing';
import './app.css';

// The runs screens load when first shown, keeping them out of the editor's start-up bundle.
const RunsList = lazy(() => import('../runs/RunsList').then((m) => ({ default: m.RunsList })));
const RunScreen = lazy(() => import('../runs/RunScreen').then((m) => ({ default: m.RunScreen })));
// So does the start-run dialog (with its budget fields), when first asked for.
const StartRunDialog = lazy(() => import('../runs/StartRunDialog').then((m) => ({ default: m.StartRunDialog })));
const ignoreKey = () => undefined;
const loadingRuns = (
  <div className="canvas-message" role="status">
    <span className="spinner" aria-hidden="true" /> Loading…
  </div>
);

/** The whole app: top bar, then the open workflow or the open panel. */
export function App() {
  const api = useApi();
  const launch = useLaunchInfo();
  const session = useWorkflowSession(api);
  const [dialogOpen, setDialogOpen] = useState(false);
  const started = useRef(false);
  // The file the app was started with, while it is being opened.
  const [openingAtStart, setOpeningAtStart] = useState<string | null>(null);
  const { open, opened, pendingPath, failure, dismissFailure, replace } = session;
  const listed = folderToList({
    workspaceDir: launch?.workspace_dir ?? null,
    dialogOpen,
    workflowShown: opened !== null,
    openingAtStart: openingAtStart !== null,
  });
  const listing = useWorkspaceWorkflows(listed, `${String(dialogOpen)}:${opened?.path ?? ''}`);
  const editing = useWorkflowEditing(api, opened, replace);
  const diskWatch = useDiskWatch(api, opened?.path ?? null, editing);
  const sidecar = useLayoutSidecar(api, opened?.path ?? null);
  const theme = useTheme();
  const [helpOpen, setHelpOpen] = useState(false);
  const [screen, setScreen] = useState<Screen>(() => screenFromSearch(window.location.search));
  const [startingRun, setStartingRun] = useState(false);
  const now = useNow(1000, screen.kind !== 'editor');

  // Keep `?run=` / `?runs` in the address bar in step with the screen shown.
  useEffect(() => {
    const next = urlWithScreen(window.location.href, screen);
    if (next !== window.location.href) window.history.replaceState(null, '', next);
  }, [screen]);
  const openRun = useCallback((runId: string) => setScreen({ kind: 'run', runId }), []);

  // Open the start-up file: a `?file=` in the URL at once (it wins anyway), otherwise once
  // launch info is known (or known to be unavailable).
  useEffect(() => {
    if (started.current) return;
    const fromUrl = startupFile(window.location.search, null);
    if (fromUrl === null && launch === undefined) return;
    started.current = true;
    const initial = fromUrl ?? startupFile('', launch ?? null);
    if (initial === null) return;
    setOpeningAtStart(initial);
    void open(initial).finally(() => setOpeningAtStart(null));
  }, [launch, open]);

  // A workflow the app is asked to open while running (a second launch with a file): shown
  // in the editor, like one picked in the Open dialog.
  useEffect(
    () =>
      api.onOpenRequest((path) => {
        started.current = true;
        setScreen({ kind: 'editor' });
        void open(path);
      }),
    [api, open],
  );

  // Keep `?file=` in the address bar in step with what is shown, so a reload reopens it.
  useEffect(() => {
    if (opened === null || api.hasFileDialog) return;
    const next = urlWithFile(window.location.href, opened.path);
    if (next !== window.location.href) window.history.replaceState(null, '', next);
  }, [api, opened]);

  // Close the dialog once the file it asked for is open.
  useEffect(() => {
    if (opened !== null) setDialogOpen(false);
  }, [opened]);

  const openPath = useCallback((path: string) => void open(path), [open]);
  const pickFile = useCallback(() => {
    api.pickWorkflowFile().then(
      (path) => {
        if (path !== null) void open(path);
      },
      (reason: unknown) => window.alert(toApiError(reason).message),
    );
  }, [api, open]);
  const onOpenClick = useCallback(() => {
    if (api.hasFileDialog) pickFile();
    else if (opened === null) document.getElementById('workflow-path')?.focus();
    else setDialogOpen(true);
  }, [api, opened, pickFile]);
  const showHelp = useCallback(() => setHelpOpen(true), []);
  // Save, undo and redo act on the editor, so only while it is shown.
  const inEditor = screen.kind === 'editor';
  useEditingShortcuts({
    save: inEditor ? editing.save : ignoreKey,
    undo: inEditor ? editing.undo : ignoreKey,
    redo: inEditor ? editing.redo : ignoreKey,
    open: onOpenClick,
    help: showHelp,
  });
  const closeDialog = useCallback(() => {
    setDialogOpen(false);
    dismissFailure();
  }, [dismissFailure]);

  const panelProps = {
    workspaceDir: launch?.workspace_dir ?? null,
    listing,
    hasFileDialog: api.hasFileDialog,
    pendingPath,
    failure,
    onOpenPath: openPath,
    onPickFile: pickFile,
    onCreated: openPath,
  };

  return (
    <ThemeContext.Provider value={theme.theme}>
      <div className="app">
        <TopBar
          opened={opened}
          pendingPath={pendingPath}
          onOpen={onOpenClick}
          editing={editing}
          themeToggle={<ThemeToggle choice={theme.choice} onCycle={theme.cycle} />}
          navigation={
            <ScreenNav
              screen={screen}
              canRun={opened !== null && opened.workflow !== null && screen.kind === 'editor'}
              onShow={setScreen}
              onRun={() => setStartingRun(true)}
            />
          }
        />
        <main className="app__main">
          <DiskChangeBanner watch={diskWatch} />
          {screen.kind === 'runs' ? (
            <Suspense fallback={loadingRuns}>
              <RunsList onOpenRun={openRun} now={now} />
            </Suspense>
          ) : screen.kind === 'run' ? (
            <Suspense fallback={loadingRuns}>
              <RunScreen key={screen.runId} runId={screen.runId} now={now} onBack={() => setScreen({ kind: 'runs' })} onOpenRun={openRun} />
            </Suspense>
          ) : opened !== null ? (
            <WorkflowScreen opened={opened} editing={editing} sidecar={sidecar} />
          ) : launch === undefined ? (
            <div className="canvas-message" role="status">
              <span className="spinner" aria-hidden="true" /> Starting…
            </div>
          ) : openingAtStart !== null ? (
            <div className="canvas-message" role="status">
              <span className="spinner" aria-hidden="true" /> Opening <code>{openingAtStart}</code>…
            </div>
          ) : (
            <div className="app__empty">
              <OpenPanel {...panelProps} />
            </div>
          )}
          {editing.error !== null ? (
            <div className="toast banner is-error" role="alert" data-testid="edit-error">
              <strong>Could not change {opened?.path ?? 'the workflow'}</strong>
              <span>{editing.error.message}</span>
              <button type="button" className="button is-small" onClick={editing.dismissError}>
                Dismiss
              </button>
            </div>
          ) : null}
          {opened !== null && failure !== null && !dialogOpen ? (
            <div className="toast banner is-error" role="alert">
              <strong>Could not open {failure.path}</strong>
              <span>{failure.error.message}</span>
              <button type="button" className="button is-small" onClick={dismissFailure}>
                Dismiss
              </button>
            </div>
          ) : null}
        </main>
        {dialogOpen ? <OpenDialog {...panelProps} onClose={closeDialog} /> : null}
        {helpOpen ? <ShortcutsHelp onClose={() => setHelpOpen(false)} /> : null}
        {startingRun && opened !== null ? (
          <Suspense fallback={null}>
            <StartRunDialog
              workflowPath={opened.path}
              defaultGoal={opened.workflow?.goal ?? null}
              inputs={opened.inputs}
              defaultBudget={{ max_cost_usd: opened.default_max_cost_usd, max_tokens: opened.default_max_tokens }}
              unsaved={editing.hasUnsavedEdits()}
              onSave={async () => {
                await editing.save();
                return !editing.hasUnsavedEdits();
              }}
              onStarted={(runId) => {
                setStartingRun(false);
                openRun(runId);
              }}
              onQueued={() => {
                // The runs list shows the queue, with the new entry.
                setStartingRun(false);
                setScreen({ kind: 'runs' });
              }}
              onClose={() => setStartingRun(false)}
            />
          </Suspense>
        ) : null}
      </div>
    </ThemeContext.Provider>
  );
}
