import { browser } from 'wxt/browser';
import { defineBackground } from 'wxt/utils/define-background';
import { handleRequest } from '../lib/server-client.js';

export default defineBackground(() => {
  // Only this extension's own content scripts and pages can send here (no externally_connectable).
  browser.runtime.onMessage.addListener((message, _sender, sendResponse) => {
    void handleRequest(message).then(sendResponse);
    return true; // the reply is sent asynchronously
  });
});
