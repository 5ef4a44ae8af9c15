// Loaded into the soaked tower with --import: every 5 s it writes what only the process itself can
// see (heap, active timers and handles) to $TOWER_SOAK_PROBE, whole (temp file, then rename).
import fs from 'node:fs';
import process from 'node:process';
import { setInterval } from 'node:timers';

const file = process.env.TOWER_SOAK_PROBE;
if (file) {
  const write = () => {
    const resources = process.getActiveResourcesInfo();
    const count = (name) => resources.filter((r) => r === name).length;
    const body = JSON.stringify({
      at: Date.now(),
      heapUsed: process.memoryUsage().heapUsed,
      timers: count('Timeout'),
      resources: resources.length,
    });
    fs.writeFileSync(`${file}.tmp`, body);
    fs.renameSync(`${file}.tmp`, file);
  };
  setInterval(write, 5000).unref();
}
