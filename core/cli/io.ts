import type { CliIO } from './command';

export interface OutputStreams {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

const BAR_WIDTH = 30;

/**
 * Lines to stdout and stderr. Progress is redrawn in place on a terminal and
 * printed every 10 % otherwise (logs and pipes stay readable).
 */
export function createIO({ stdout, stderr }: OutputStreams): CliIO {
  let lastTenth = -1;
  return {
    out: (line) => void stdout.write(`${line}\n`),
    err: (line) => void stderr.write(`${line}\n`),
    progress(done, total, label = '') {
      const ratio = total > 0 ? Math.min(1, Math.max(0, done / total)) : 1;
      const percent = Math.floor(ratio * 100);
      if (stderr.isTTY) {
        const filled = Math.round(ratio * BAR_WIDTH);
        stderr.write(`\r[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${String(percent).padStart(3)}% ${done}/${total} ${label}`);
        if (done >= total) stderr.write('\n');
        return;
      }
      const tenth = Math.floor(percent / 10);
      if (tenth === lastTenth && done < total) return;
      lastTenth = tenth;
      stderr.write(`${percent}% ${done}/${total} ${label}`.trimEnd() + '\n');
    },
  };
}
