import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT_DIR } from './paths';

function readVersion(): string {
  for (const candidate of [path.join(ROOT_DIR, 'package.json'), path.join(ROOT_DIR, '..', 'package.json')]) {
    try {
      return (JSON.parse(readFileSync(candidate, 'utf8')) as { version: string }).version;
    } catch {
      // not in this folder: dist/ sits one level below the package
    }
  }
  return '0.0.0';
}

/** The package version, for MCP server info and the admin footer. */
export const SVC_VERSION = readVersion();
