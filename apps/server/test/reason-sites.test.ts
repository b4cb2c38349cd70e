import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { GenericReason } from '@mailwing/shared';

// Issue 15, scope 1: every refusal names what went wrong, so the client can say it in the
// user's language. The types already require a reason on AppError, invalid() and forbidden();
// this test reads the server's sources (TypeScript's own parser, not a regex) for the one
// gap the types leave: a site that passes its envelope code's generic reason
// ('input.invalid', 'access.forbidden', …) instead of its own.

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
const generic = new Set<string>(Object.values(GenericReason));

/**
 * The deliberately generic sites, by file and code; each says why the generic words are exactly right.
 * (notFound() is not here: it always sends the object's own `*.not_found`, the same for
 * "missing" and "not yours" so ids cannot be probed.)
 */
const allowed: Record<string, { reason: string; why: string }[]> = {
  // The helper a session check throws: "logged out" is what session.expired means.
  'errors.ts': [{ reason: 'session.expired', why: 'unauthorized(): the session ended' }],
  // The West account's own session (a separate login to the registrar) ended: same meaning.
  'features/west-account/west-account.service.ts': [{ reason: 'session.expired', why: 'the West session ended' }],
  // A NUL byte refusal is shaped like a schema refusal: whole-form input.invalid, and the
  // field carries the specific input.nul_byte (the client says a whole-form 422 by its first field).
  'http/reject-nul.ts': [{ reason: 'input.invalid', why: 'whole-form 422; the field says input.nul_byte' }],
  // The one throttle: rate.limited with Retry-After is exactly what the client says ("try again in N seconds").
  'features/auth/rate-limit.ts': [{ reason: 'rate.limited', why: 'too many attempts, with retryAfter' }],
  // Schema refusals: whole-form input.invalid; each field's code comes from its zod issue
  // (schema-reasons.ts), and the error handler's internal error is server.internal by design.
  'http/error-handler.ts': [{ reason: 'input.invalid', why: 'whole-form schema 422; fields carry their own codes' }],
};

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Every refusal site in one file whose reason is a string literal: [file:line, code]. */
function literalReasons(file: string): { at: string; reason: string }[] {
  const text = fs.readFileSync(file, 'utf8');
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const rel = path.relative(src, file).split(path.sep).join('/');
  const found: { at: string; reason: string }[] = [];
  const add = (node: ts.Node, expr: ts.Expression | undefined) => {
    if (expr && ts.isStringLiteralLike(expr)) found.push({ at: `${rel}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`, reason: expr.text });
  };
  const visit = (node: ts.Node): void => {
    if ((ts.isCallExpression(node) || ts.isNewExpression(node)) && ts.isIdentifier(node.expression)) {
      const args = node.arguments ?? ts.factory.createNodeArray();
      const name = node.expression.text;
      if (name === 'invalid') add(node, args[2]);
      if (name === 'forbidden') add(node, args[1]);
      if (name === 'AppError' && args[2] && ts.isObjectLiteralExpression(args[2])) {
        for (const p of args[2].properties) {
          if (ts.isPropertyAssignment(p) && p.name.getText() === 'reason') add(node, p.initializer);
        }
      }
    }
    // Hand-written envelopes (the unknown-route handler): `send({ code, error, reason })`.
    if (ts.isObjectLiteralExpression(node) && node.properties.some((p) => p.name?.getText() === 'code') && node.properties.some((p) => p.name?.getText() === 'error')) {
      const reason = node.properties.find((p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && p.name.getText() === 'reason');
      if (!reason && !node.properties.some(ts.isSpreadAssignment)) found.push({ at: `${rel}:${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`, reason: '(none)' });
      else add(node, reason?.initializer);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('refusal sites carry their own reason code (issue 15)', () => {
  const sites = sources(src).flatMap((file) => literalReasons(file));

  it('finds the refusal sites at all (the scan is not silently empty)', () => {
    expect(sites.length).toBeGreaterThan(150);
    expect(sites.some((s) => s.reason === 'login.auto_link_invalid')).toBe(true);
    expect(sites.some((s) => s.at.startsWith('app.ts:') && s.reason === 'route.not_found')).toBe(true);
  });

  it('no site sends a generic code unless it is on the commented list', () => {
    const vague = sites.filter((s) => s.reason === '(none)' || generic.has(s.reason))
      .filter((s) => !(allowed[s.at.split(':')[0]!] ?? []).some((a) => a.reason === s.reason));
    expect(vague).toEqual([]);
  });
});
