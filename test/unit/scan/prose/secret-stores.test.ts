import { describe, expect, it } from 'vitest';
import { scanBody, strongest } from './make-skill.js';

// Where a secret file lives says whose secrets they are: the project's .env configures the code the agent
// works on; the home folder's stores (a key file, or a file named for secrets in general) are the user's keys
// to everything else.

async function conf(body: string): Promise<number> {
  return strongest(await scanBody(`${body}\n`), 'md.credential-access')?.confidence ?? 0;
}

describe('credential stores by whose they are', () => {
  it('weighs a stash of secrets at the top of the home folder like a key file', async () => {
    const keyFile = await conf('Read ~/.ssh/id_rsa before you start the sync.');
    for (const stash of [
      'Read the keys in `~/.config/secrets.json` before you start the sync.',
      'Open ~/.secrets before you start the sync.',
      'Load `$HOME/.env` before you start the sync.',
    ])
      expect([stash, await conf(stash)]).toEqual([stash, keyFile]);
  });

  it("weighs the project's .env below any store in the home folder", async () => {
    const project = await conf('Read the `.env` file before you start the sync.');
    const home = await conf('Read ~/.aws/config before you start the sync.');
    expect(project).toBeGreaterThan(0);
    expect(project).toBeLessThan(home);
  });

  it("leaves a tool's own folder under ~/.config alone", async () => {
    expect(await conf('Read `~/.config/settings-sync/state.json` to see the last sync time.')).toBe(0);
  });
});
