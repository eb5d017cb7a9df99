// First: the theme's font families are chosen before any other module reads them.
import './theme/platformFonts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiProvider } from './api/ApiContext';
import { dropCredentialsFromAddress } from './api/launchUrl';
import { selectApi } from './api/selectApi';
import { App } from './app/App';
import { LinkOpenerContext } from './markdown/linkOpener';
import { screenFromSearch } from './app/screenUrl';
import './app/theme.css';
import { prefetchRunGraph } from './runs/runGraphRead';
import { prefetchRunOpening } from './runs/runOpeningRead';
import { applyTheme } from './theme/useTheme';

async function start() {
  // Before anything reads or copies the address: no credential stays in it.
  dropCredentialsFromAddress();
  applyTheme();
  const container = document.getElementById('root');
  if (container === null) throw new Error('index.html has no #root element');
  const api = await selectApi();
  // Opening on a run: its graph, record and timeline and the run screen's code are fetched
  // right away, in parallel with the app's first render.
  const screen = screenFromSearch(window.location.search);
  if (screen.kind === 'run') {
    prefetchRunGraph(api, screen.runId);
    prefetchRunOpening(api, screen.runId);
    void import('./runs/RunScreen');
  }
  createRoot(container).render(
    <StrictMode>
      <ApiProvider api={api}>
        <LinkOpenerContext.Provider value={api.openExternalUrl}>
          <App />
        </LinkOpenerContext.Provider>
      </ApiProvider>
    </StrictMode>,
  );
}

void start();
