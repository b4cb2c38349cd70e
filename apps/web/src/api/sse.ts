// A parser for the text/event-stream format (WHATWG HTML §9.2.6 "Interpreting
// an event stream"). We read /h5/events with fetch rather than EventSource so
// the token travels in an Authorization header instead of the URL, which means
// doing EventSource's parsing ourselves.

export interface SseMessage {
  /** The `event:` field; "message" when the block has none (as EventSource does). */
  event: string;
  /** The `data:` lines joined with "\n". */
  data: string;
  id?: string;
}

export interface SseParser {
  /** Feeds a decoded chunk; chunks may split lines, fields and even "\r\n" anywhere. */
  push(chunk: string): void;
  /** The last `retry:` value the server asked for, in ms. */
  readonly retry: number | undefined;
}

/**
 * Calls onMessage once per complete block (a block ends at a blank line). A
 * block without data is not dispatched; comments (": ping") and unknown fields
 * are skipped. A trailing block that never gets its blank line is dropped, as
 * the spec says for a stream that ends mid-block.
 */
export function createSseParser(onMessage: (message: SseMessage) => void): SseParser {
  let buffer = '';
  // A chunk that ended on "\r" may be half of "\r\n"; the next "\n" then ends nothing.
  let skipLf = false;
  let event = '';
  let data: string[] = [];
  let hasData = false;
  let id: string | undefined;
  let retry: number | undefined;

  const dispatch = () => {
    if (hasData) onMessage({ event: event || 'message', data: data.join('\n'), ...(id !== undefined ? { id } : {}) });
    event = '';
    data = [];
    hasData = false;
  };

  const line = (text: string) => {
    if (text === '') return dispatch();
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'event':
        event = value;
        break;
      case 'data':
        data.push(value);
        hasData = true;
        break;
      case 'id':
        if (!value.includes('\0')) id = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) retry = Number(value);
        break;
      default:
        break;
    }
  };

  return {
    push(chunk: string) {
      let text = chunk;
      if (skipLf && text.startsWith('\n')) text = text.slice(1);
      skipLf = false;
      buffer += text;
      let start = 0;
      for (let i = 0; i < buffer.length; i += 1) {
        const c = buffer[i];
        if (c !== '\n' && c !== '\r') continue;
        line(buffer.slice(start, i));
        if (c === '\r') {
          if (i + 1 < buffer.length) {
            if (buffer[i + 1] === '\n') i += 1;
          } else {
            skipLf = true;
          }
        }
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
    get retry() {
      return retry;
    },
  };
}
