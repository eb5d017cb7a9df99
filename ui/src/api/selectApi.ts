import type { Api } from './Api';
import { createHttpApi } from './httpApi';

/** True inside the Tauri webview (Tauri 2 injects `__TAURI_INTERNALS__`). */
export function isTauri(target: object): boolean {
  return '__TAURI_INTERNALS__' in target;
}

/**
 * Picks the implementation for this environment. The Tauri one is loaded lazily so the
 * browser build never evaluates Tauri's modules.
 */
export async function selectApi(target: object = window): Promise<Api> {
  if (isTauri(target)) {
    const { createTauriApi } = await import('./tauriApi');
    return createTauriApi();
  }
  return createHttpApi();
}
