// The command-line program from source, for tests that must run it in another process (another uid):
// `node --import tsx test/support/cli-main.ts audit …` from the repository root.
import { main } from '../../src/cli/main.js';

process.exitCode = await main(process.argv);
