import type { FastifyReply, FastifyRequest } from 'fastify';

// A strict policy on every response (issue 2 §7). Mail bodies render in a sandboxed
// srcdoc iframe that inherits this policy, so no mail can run script or load
// anything from outside our origin. antd-mobile sets inline styles, hence style-src.
const policy = (imageOrigins: readonly string[]) => [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  // The location pages' map tiles (issue 15 §6) come from the one configured tile origin
  // (config.ts checks it is a plain origin); nothing else from outside.
  ["img-src 'self' data: blob:", ...imageOrigins].join(' '),
  "font-src 'self' data:",
  "connect-src 'self'",
  "media-src 'self' blob:",
  "frame-src 'self'",
  "worker-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

/** The headers, with images also allowed from these origins (the map's tile server). */
export function securityHeadersWith(imageOrigins: readonly string[]): (req: FastifyRequest, reply: FastifyReply) => Promise<void> {
  // Built once: the hook runs on every request.
  const csp = policy(imageOrigins);
  return async (req, reply) => {
    // API answers hold mail, contacts and tokens: no shared or disk cache may keep them
    // (issue 12). File routes that are safe to cache set their own Cache-Control later.
    if (req.url.startsWith('/h5/')) reply.header('Cache-Control', 'no-store');
    reply.header('Content-Security-Policy', csp);
    // Tokens travel in the query (spec §7); never leak them through Referer.
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('X-Frame-Options', 'SAMEORIGIN');
    reply.header('Cross-Origin-Opener-Policy', 'same-origin');
  };
}
