import type { FastifyReply, FastifyRequest } from 'fastify';

// A strict policy on every response (issue 2 §7). Mail bodies render in a sandboxed
// srcdoc iframe that inherits this policy, so no mail can run script or load
// anything from outside our origin. antd-mobile sets inline styles, hence style-src.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
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

export async function securityHeaders(_req: FastifyRequest, reply: FastifyReply): Promise<void> {
  reply.header('Content-Security-Policy', CSP);
  // Tokens travel in the query (spec §7); never leak them through Referer.
  reply.header('Referrer-Policy', 'no-referrer');
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('X-Frame-Options', 'SAMEORIGIN');
  reply.header('Cross-Origin-Opener-Policy', 'same-origin');
}
