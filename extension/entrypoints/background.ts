import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import { trustedSender } from '../lib/message-guard.js';
import { handleRequest } from '../lib/server-client.js';

export default defineBackground(() => {
  // The worker runs on the extension's own origin (chrome-extension://<id>), which its pages share.
  const extensionOrigin = location.origin;
  // No externally_connectable, so only this extension can send here; the sender is still checked, since a
  // content script runs in the page's process and its tab must be one of the sites it was made for.
  browser.runtime.onMessage.addListener((message, sender, sendResponse) => {
    if (!trustedSender(sender, browser.runtime.id, extensionOrigin)) {
      sendResponse({ ok: false, failure: { code: 'refused', message: 'request from an unexpected sender' } });
      return false;
    }
    void handleRequest(message).then(sendResponse);
    return true; // the reply is sent asynchronously
  });
});
