import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiProvider } from './api/ApiContext';
import { selectApi } from './api/selectApi';
import { App } from './app/App';
import './app/theme.css';
import { applyTheme } from './theme/useTheme';

async function start() {
  applyTheme();
  const container = document.getElementById('root');
  if (container === null) throw new Error('index.html has no #root element');
  const api = await selectApi();
  createRoot(container).render(
    <StrictMode>
      <ApiProvider api={api}>
        <App />
      </ApiProvider>
    </StrictMode>,
  );
}

void start();
