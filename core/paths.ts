import path from 'node:path';

/** Folder of the package (or of `dist/` once built): views and plugins sit below it. */
export const ROOT_DIR = path.resolve(__dirname, '..');
export const VIEWS_DIR = path.join(ROOT_DIR, 'views');
export const PLUGINS_DIR = path.join(ROOT_DIR, 'plugins');
