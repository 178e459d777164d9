// Starts a grandchild that sleeps (holding the same stdout), records both pids in the file named
// by --pidfile=…, then sleeps itself: only killing the whole process group ends both.
import { spawn } from 'node:child_process';
import { writeFileSync, renameSync } from 'node:fs';
const file = process.argv.find((a) => a.startsWith('--pidfile='))?.slice(10);
const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' });
// Written then renamed, so a reader never sees half a file.
writeFileSync(`${file}.tmp`, JSON.stringify({ child: process.pid, grandchild: child.pid }));
renameSync(`${file}.tmp`, file);
setInterval(() => {}, 1000);
