import { browser } from 'wxt/browser';
import type { Reply } from '../../lib/protocol.js';
import { hostPermissionPattern, InvalidServerUrl, serverOrigin } from '../../lib/server-url.js';
import { loadSettings, saveSettings } from '../../lib/settings.js';

const form = document.querySelector<HTMLFormElement>('#settings')!;
const serverInput = document.querySelector<HTMLInputElement>('#server-url')!;
const tokenInput = document.querySelector<HTMLInputElement>('#token')!;
const status = document.querySelector<HTMLElement>('#status')!;

function say(message: string, tone: 'ok' | 'error' | 'info'): void {
  status.textContent = message;
  status.dataset.tone = tone;
}

async function checkServer(origin: string): Promise<void> {
  const reply = (await browser.runtime.sendMessage({ kind: 'health' })) as Reply<'health'>;
  if (reply.ok) say(`Saved. Connected to SkillAudit ${reply.value.version} at ${origin}.`, 'ok');
  else say(`Saved, but: ${reply.failure.message}`, 'error');
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  let origin: string;
  try {
    origin = serverOrigin(serverInput.value);
  } catch (error) {
    if (error instanceof InvalidServerUrl) return say(error.message, 'error');
    throw error;
  }
  // Asked before anything else is awaited: Chrome grants the prompt only while the click's user gesture lasts.
  // Already-granted origins (the local default) resolve at once without a prompt.
  const granted = await browser.permissions.request({ origins: [hostPermissionPattern(origin)] });
  await saveSettings({ serverUrl: origin, token: tokenInput.value.trim() });
  serverInput.value = origin;
  if (!granted) return say(`Saved, but SkillAudit may not contact ${origin} until you allow it.`, 'error');
  say('Saved. Checking the server…', 'info');
  await checkServer(origin);
});

void loadSettings().then((settings) => {
  serverInput.value = settings.serverUrl;
  tokenInput.value = settings.token;
});
