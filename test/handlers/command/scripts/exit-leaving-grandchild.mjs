// Prints JSON and exits at once, leaving a grandchild that holds stdout open and sleeps.
import { spawn } from 'node:child_process';
const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' });
process.stdout.write(JSON.stringify({ grandchild: child.pid }));
process.exit(0);
