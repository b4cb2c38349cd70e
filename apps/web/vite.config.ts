import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

const require = createRequire(import.meta.url);

// Files copied from public/ that the app shell needs offline.
const PUBLIC_SHELL = ['icon.svg', 'icon-192.png', 'icon-512.png', 'manifest.webmanifest'];

/**
 * Emits sw.js with the list of built files, so the service worker can precache
 * the app shell and drop the caches of older builds. A hand-written worker keeps
 * us free of a PWA framework; it never touches /h5/ (API calls carry tokens).
 */
function serviceWorker(): Plugin {
  return {
    name: 'mailwing-sw',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle).filter((f) => !f.endsWith('.map'));
      // pdf.js and its worker (1.7 MB, issue 14) load only when a PDF is previewed, which needs
      // the network anyway: no phone downloads them at install.
      const shell = ['./', ...[...files.filter((f) => !/^assets\/pdf(\.worker)?[-.]/.test(f)), ...PUBLIC_SHELL].map((f) => `./${f}`)];
      // The build's file names carry content hashes, so they name the build.
      const version = files.filter((f) => f.startsWith('assets/')).sort().join('|');
      let hash = 0;
      for (const ch of version) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
      const source = readFileSync(new URL('./sw.js', import.meta.url), 'utf8')
        .replace('= __SHELL__;', `= ${JSON.stringify(shell)};`)
        .replace('= __VERSION__;', `= ${JSON.stringify(`mailwing-${hash.toString(36)}`)};`);
      this.emitFile({ type: 'asset', fileName: 'sw.js', source });
    },
  };
}

/** Files worth compressing: text, not already-compressed images. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/;

/**
 * Writes a .br and a .gz beside each text file of the build, so the server sends
 * compressed bytes without compressing per request (@fastify/static preCompressed).
 * Brotli at its slowest setting: it runs once per build, and every visit gains.
 */
function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'mailwing-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file) || statSync(file).size < 1024) continue;
        const raw = readFileSync(file);
        writeFileSync(`${file}.br`, brotliCompressSync(raw, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11, [zlib.BROTLI_PARAM_SIZE_HINT]: raw.length } }));
        writeFileSync(`${file}.gz`, gzipSync(raw, { level: 9 }));
      }
    },
  };
}

/**
 * `import { X } from 'antd-mobile'` goes through the package's index, which its package.json
 * marks as having side effects (it imports the global styles). Bundled as is, every component
 * the index re-exports counts as statically imported by the entry, so the first-screen group
 * below captured all of them (220 kB gzip instead of 157). This serves the index without that
 * import and as side-effect free, so only what is used is imported; main.tsx imports the global
 * styles itself.
 */
const ANTD_BARREL = '\0antd-mobile-barrel';
function antdBarrel(): Plugin {
  return {
    name: 'mailwing-antd-barrel',
    enforce: 'pre',
    resolveId(source) {
      return source === 'antd-mobile' ? ANTD_BARREL : null;
    },
    load(id) {
      if (id !== ANTD_BARREL) return null;
      const file = path.join(path.dirname(require.resolve('antd-mobile/package.json')), 'es/index.js');
      const code = readFileSync(file, 'utf8').replace("import './global';", '').replaceAll("from './", "from 'antd-mobile/es/");
      return { code, moduleSideEffects: false };
    },
  };
}

/**
 * Issue 15: the Inbox's API calls start beside the app's own download. src/api/early.ts is
 * built as an entry of its own (Vite would fold a second module script of index.html into
 * the app's entry), and index.html gets its script ahead of the app's, so it runs first.
 */
function earlyCalls(): Plugin {
  const source = path.resolve(import.meta.dirname, 'src/api/early.ts');
  let ref = '';
  return {
    name: 'mailwing-early-calls',
    apply: 'build',
    buildStart() {
      ref = this.emitFile({ type: 'chunk', id: source, name: 'early' });
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const file = ctx.bundle && ref ? Object.values(ctx.bundle).find((c) => c.type === 'chunk' && c.facadeModuleId === source)?.fileName : undefined;
        if (!file) throw new Error('early.ts was not built');
        return html.replace('<script type="module"', `<script type="module" src="./${file}"></script>\n    <script type="module"`);
      },
    },
  };
}

/**
 * Issue 15: the splash paints as soon as index.html has arrived. A style sheet linked in <head>
 * holds the first paint until it has arrived too (a round trip on a phone's network), so it is
 * linked as a preload instead: fetched at once at the highest priority, but not render-blocking.
 * main.tsx turns it into the style sheet before the app's first render (ui/app-style.ts). It stays
 * in <head>, ahead of the sheets lazy pages add there later, so the cascade's order is as before:
 * moving it to the end of <body> instead put it after them, and antd-mobile's base rules then
 * beat our overrides in lazy pages.
 */
function styleAfterSplash(): Plugin {
  return {
    name: 'mailwing-style-after-splash',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html) {
        const link = /<link rel="stylesheet" crossorigin href="([^"]+\.css)">/g;
        const found = [...html.matchAll(link)];
        if (found.length !== 1) throw new Error(`expected one style sheet in index.html, found ${found.length}`);
        return html.replace(link, '<link rel="preload" as="style" crossorigin href="$1" data-mw-app-style>');
      },
    },
  };
}

export default defineConfig({
  base: './',
  plugins: [antdBarrel(), react(), earlyCalls(), styleAfterSplash(), serviceWorker(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    modulePreload: {
      // index.html still preloads the whole first screen. A lazy page's JS chunks are not
      // listed in the first screen's preload map (which named every chunk of every page and
      // grew with each page: budget.test.ts); they load through the page's own imports when
      // it opens, one round trip later. Its CSS stays listed, since that is how it loads.
      resolveDependencies: (_file, deps, { hostType }) => (hostType === 'js' ? deps.filter((d) => d.endsWith('.css')) : deps),
    },
    rolldownOptions: {
      experimental: { lazyBarrel: true },
      output: {
        codeSplitting: {
          // The first screen in one file (issue 15): as ~40 shared chunks it loaded in waves of
          // six requests (HTTP/1.1's connections per host), each a round trip on a phone's network.
          // Lazy pages keep their own chunks. early.ts stays a file of its own: it imports nothing.
          groups: [{ name: 'first-screen', tags: ['$initial'], test: (id) => !/[\\/]api[\\/]early\.ts$/.test(id) }],
        },
      },
    },
  },
  server: {
    // `npm run dev -w apps/web` talks to a local server started with npm start.
    proxy: { '/h5': 'http://127.0.0.1:8080' },
  },
});
