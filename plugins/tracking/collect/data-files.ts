import fs from 'node:fs';
import path from 'node:path';

/** Lines of a file in the plugin's `data/` folder, without blanks and `#` comments. */
export function readDataList(file: string): string[] {
  return fs
    .readFileSync(path.join(__dirname, '..', 'data', file), 'utf8')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}
