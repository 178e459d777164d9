import { humanReport, runFixture, runFixtures } from 'switchboard/testing';

const one = await runFixture('first-bot.yaml');          // { status: 'passed' | 'failed' | 'error', failures, … }
const all = await runFixtures({ paths: ['fixtures/conversations'] }); // files and folders
console.log(humanReport(all, { color: false }));          // what `switchboard test` prints
if (all.failed + all.errors > 0) process.exitCode = 1;

export {};
