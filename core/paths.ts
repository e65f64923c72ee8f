import path from 'node:path';

/** Folder of the package (or of `dist/` once built): the kernel and the plugins sit below it. */
export const ROOT_DIR = path.resolve(__dirname, '..');
/** The kernel's ejs views and their assets, beside the kernel. */
export const VIEWS_DIR = path.join(__dirname, 'views');
export const PLUGINS_DIR = path.join(ROOT_DIR, 'plugins');
