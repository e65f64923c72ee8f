import fs from 'node:fs';
import path from 'node:path';

/** A benchmark module: prints its figures through `log`. */
export interface Bench {
  name: string;
  run(log: (line: string) => void): Promise<void>;
}

/**
 * `npm run bench`: runs every `*.bench.js` beside this file (or only those whose
 * name contains one of the arguments) and prints their figures.
 */
async function main(filters: string[]): Promise<void> {
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.js'))
    .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
    .sort();
  for (const file of files) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const bench = (require(path.join(__dirname, file)) as { default: Bench }).default;
    console.log(`\n== ${bench.name} ==`);
    const started = Date.now();
    await bench.run((line) => console.log(line));
    console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
  }
}

main(process.argv.slice(2)).then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
