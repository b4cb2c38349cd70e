import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

/**
 * Gzip bytes of the JavaScript a first visit downloads: the entry script,
 * its modulepreloads, and every chunk they import statically. Lazy chunks
 * (import()) are left out: they load only when their page opens.
 */
export function firstScreenJs(distDir: string): { files: Record<string, number>; gzipBytes: number } {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const start = [...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="\.\/([^"]+\.js)"/g)].map((m) => resolve(distDir, m[1]!));
  const files: Record<string, number> = {};
  const queue = [...start];
  while (queue.length > 0) {
    const file = queue.pop()!;
    const name = file.slice(distDir.length + 1);
    if (name in files) continue;
    const source = readFileSync(file);
    files[name] = gzipSync(source, { level: 9 }).length;
    // Static imports only: `import … from "./x.js"` and bare `import "./x.js"`.
    for (const m of source.toString('utf8').matchAll(/(?:^|[;\n}])\s*import\s*(?:[^'"();]*?from\s*)?["'](\.\/[^"']+\.js)["']/g)) {
      queue.push(resolve(dirname(file), m[1]!));
    }
  }
  return { files, gzipBytes: Object.values(files).reduce((a, b) => a + b, 0) };
}
