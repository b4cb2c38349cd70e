import { fileURLToPath } from 'node:url';

// Fixed test ports, away from the defaults a developer may have running.
// E2E_PORT_OFFSET moves them all, so two checkouts can run the suite at once.
const offset = Number(process.env.E2E_PORT_OFFSET ?? 0);
export const HTTP_PORT = 18080 + offset;
export const SMTP_PORT = 12525 + offset;
/** The outside world's mail server stand-in: the server relays mail for other domains here. */
export const MX_PORT = 12526 + offset;
/** WeChat's stand-in (its OAuth authorize page and code exchange): the e2e server runs with WeChat login on against it. */
export const WECHAT_PORT = 12527 + offset;
/** The map tile server and geocoder stand-in of the location pages (issue 15 §6). */
export const MAP_PORT = 12530 + offset;
export const BASE_URL = `http://127.0.0.1:${HTTP_PORT}`;
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DIST_DIR = fileURLToPath(new URL('../apps/web/dist', import.meta.url));
export const ARTIFACTS = fileURLToPath(new URL('./artifacts', import.meta.url));
export const DEMO_PASSWORD = 'demo1234';
/** Where the stand-in MX writes each message it accepts, one .eml file per message. */
export const MX_DIR = fileURLToPath(new URL('./artifacts/mx-inbox', import.meta.url));
/** The WeChat account the stand-in's authorize page always answers for. */
export const WECHAT_OPENID = 'e2e-openid-alice';
/** Where global-setup writes the local Dovecot's host, ports and mailbox login (collection tests). */
export const DOVECOT_FILE = fileURLToPath(new URL('./artifacts/dovecot.json', import.meta.url));
