// Query parameters that carry a secret: the session token (spec §7 `t`), and the
// one-time codes and tickets some pages carry in their links.
const SECRET_PARAMS = new Set(['t', 'token', 'ltoken', 'code', 'ticket', 'state', 'password', 'key']);

function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).trim().toLowerCase();
  } catch {
    return raw.trim().toLowerCase();
  }
}

/**
 * A request URL as it may appear in a log. Names are compared after percent-decoding,
 * as the query parser reads them: `?%74=…` is `t` to the server, so it is `t` here too
 * (issue 12, finding 10: a regex on the raw text let it through).
 */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const query = url.slice(q + 1).split('&').map((pair) => {
    const eq = pair.indexOf('=');
    const name = eq < 0 ? pair : pair.slice(0, eq);
    return SECRET_PARAMS.has(decodedName(name)) ? `${name}=[redacted]` : pair;
  });
  return `${url.slice(0, q)}?${query.join('&')}`;
}
