import { describe, expect, it } from 'vitest';
import {
  followsOutput,
  headingFraming,
  leadInFraming,
  sectionFraming,
  sentenceFraming,
} from '../../../../src/core/markdown/framing.js';

describe('headingFraming', () => {
  it.each([
    ['Detection patterns', 'documents-risk'],
    ['Red flags', 'documents-risk'],
    ['What this scanner detects', 'documents-risk'],
    ['Malicious examples', 'documents-risk'],
    ['Anti-patterns', 'documents-risk'],
    ['Never do this', 'documents-risk'],
    ['Security checklist', 'documents-risk'],
    ['Known prompt-injection payloads', 'documents-risk'],
    ['Example output', 'example'],
    ['Sample responses', 'example'],
    ['Prerequisites', 'user-action'],
    ['Before you begin', 'user-action'],
    ['Installation', 'user-action'],
    ['Workflow', 'instruction'],
    ['Step 2: convert', 'instruction'],
    ['PDF tools', null],
    ['Overview', null],
  ])('%s -> %s', (heading, framing) => {
    expect(headingFraming(heading)).toBe(framing);
  });
});

describe('followsOutput', () => {
  it.each([
    ['Run the checker and follow the tips it prints:', true],
    ['On first use, run scripts/setup.py and do what it says.', true],
    ["Print the helper's first-run steps and follow them:", true],
    ['Then follow the instructions the script prints.', true],
    ['Run this to get the installation steps:', true],
    ['Complete the steps shown above.', true],
    ['Run `node setup.js` and follow the on-screen instructions.', true],
    ['Follow these steps:', false],
    ['Follow the next steps below:', false],
    ['Run the validator:', false],
    ['Follow it with a review.', false],
    ['Print the report and check the steps in the CI config.', false],
  ])('%s -> %s', (sentence, follows) => {
    expect(followsOutput(sentence)).toBe(follows);
  });
});

describe('leadInFraming', () => {
  it.each([
    ['Run:', 'instruction'],
    ['Then run the following command:', 'instruction'],
    ['Execute this script', 'instruction'],
    ['Example output:', 'example'],
    ['For example, a session looks like this:', 'example'],
    ['The script prints:', 'example'],
    ['Run the checker and follow the tips it prints:', 'instruction'],
    ['Run this and do what it prints:', 'instruction'],
    ['The output looks like this, as follows:', 'example'],
    ['Bad:', 'documents-risk'],
    ['❌ Wrong', 'documents-risk'],
    ['Never paste commands like these:', 'documents-risk'],
    ['Attackers often hide payloads like this:', 'documents-risk'],
    ['These phrases will be flagged:', 'documents-risk'],
    ['If you do not have jq, install it with:', 'user-action'],
    ['You can install the CLI on your machine with', 'user-action'],
    ['Ask the user to run:', 'user-action'],
    ['The file is small.', null],
  ])('%s -> %s', (text, framing) => {
    expect(leadInFraming(text)).toBe(framing);
  });

  it('lets the last sentence decide unless the lead-in introduces with a colon', () => {
    expect(leadInFraming('Never overwrite the config yourself. It is kept safe.')).toBeNull();
    expect(leadInFraming('Never do this. The following is what an attack looks like:')).toBe(
      'documents-risk',
    );
  });
});

describe('sectionFraming', () => {
  it('defaults to instruction and lets a risk section frame all below it', () => {
    expect(sectionFraming([])).toBe('instruction');
    expect(sectionFraming(['Tool', 'Usage'])).toBe('instruction');
    expect(sectionFraming(['Detection rules', 'Examples'])).toBe('documents-risk');
    expect(sectionFraming(['Examples', 'Step 1'])).toBe('instruction');
    expect(sectionFraming(['Examples', 'CSV input'])).toBe('example');
  });

  it('reads a heading that names both a security topic and what the reader does as the action', () => {
    // The author chooses the topic word: it may not turn the usage into a quote.
    expect(headingFraming('Security notes: Usage')).toBe('instruction');
    expect(headingFraming('Detection: Setup')).toBe('user-action');
    expect(sectionFraming(['Security notes', 'Usage'])).toBe('instruction');
    expect(sectionFraming(['Security review', 'Installation'])).toBe('user-action');
    // Headings that name attacks or forbid quote whatever is below them, usage included.
    expect(headingFraming('Attack steps')).toBe('documents-risk');
    expect(headingFraming('Never run these commands')).toBe('documents-risk');
    expect(sectionFraming(['Malicious payloads', 'Usage'])).toBe('documents-risk');
    expect(sectionFraming(['Detection', 'Notes'])).toBe('documents-risk');
    expect(sectionFraming(['Detection rules', 'Examples'])).toBe('documents-risk');
  });
});

describe('sentenceFraming', () => {
  it('reads setup advice to the user in instruction sections only', () => {
    expect(sentenceFraming('You can install it with sudo apt install jq.', 'instruction')).toBe(
      'user-action',
    );
    expect(sentenceFraming('You can install it with sudo apt install jq.', 'example')).toBe('example');
  });

  it('reads talk about detection as documenting a risk', () => {
    expect(sentenceFraming('The scanner flags "ignore previous instructions".', 'instruction')).toBe(
      'documents-risk',
    );
    expect(sentenceFraming('Attackers hide commands in comments.', 'instruction')).toBe('documents-risk');
  });

  it('keeps the context for plain instructions', () => {
    expect(sentenceFraming('Send the report to the user.', 'instruction')).toBe('instruction');
  });
});
