import { browser } from 'wxt/browser';
import { DEFAULT_SERVER_URL } from './server-url.js';

// Settings live in chrome.storage.local (this profile only, never synced): the token is a credential.

export interface Settings {
  serverUrl: string;
  token: string;
}

export async function loadSettings(): Promise<Settings> {
  const stored = await browser.storage.local.get(['serverUrl', 'token']);
  return {
    serverUrl:
      typeof stored.serverUrl === 'string' && stored.serverUrl ? stored.serverUrl : DEFAULT_SERVER_URL,
    token: typeof stored.token === 'string' ? stored.token : '',
  };
}

export async function saveSettings(settings: Settings): Promise<void> {
  await browser.storage.local.set({ serverUrl: settings.serverUrl, token: settings.token });
}
