import { fileURLToPath } from 'node:url';

// Fixed test ports, away from the defaults a developer may have running.
export const HTTP_PORT = 18080;
export const SMTP_PORT = 12525;
export const BASE_URL = `http://127.0.0.1:${HTTP_PORT}`;
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST_DIR = fileURLToPath(new URL('../apps/web/dist', import.meta.url));
export const ARTIFACTS = fileURLToPath(new URL('./artifacts', import.meta.url));
export const DEMO_PASSWORD = 'demo1234';
