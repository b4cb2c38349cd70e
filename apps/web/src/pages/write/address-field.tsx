import { useEffect, useRef, useState, type ReactNode } from 'react';
import { CloseOutline } from 'antd-mobile-icons';
import { DEBOUNCE_MS, type Address } from '@mailwing/shared';
import { api } from '../../api/endpoints';
import { useT } from '../../i18n';
import { splitTyped, type Recipient } from '../../state/compose-rules';

interface Props {
  name: 'to' | 'cc' | 'bcc';
  label: string;
  value: Recipient[];
  onAdd: (recipients: Recipient[]) => void;
  onRemove: (index: number) => void;
  error?: string;
  /** Lower-case addresses the server refused at send (issue 14): shown red. */
  refused?: ReadonlySet<string>;
  /** Shown at the end of the row (the To row's Cc/Bcc switch). */
  extra?: ReactNode;
}

const MAX_SUGGESTIONS = 8;

/**
 * Recipients as chips. Typing an address then a comma, space or enter (or
 * leaving the field) makes a chip; invalid ones are red. Suggestions from past
 * correspondents and the directory appear after a pause (spec §9: 500 ms).
 */
export function AddressField({ name, label, value, onAdd, onRemove, error, refused, extra }: Props) {
  const m = useT();
  const input = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [focused, setFocused] = useState(false);
  const [suggestions, setSuggestions] = useState<Address[]>([]);

  const query = text.trim();
  useEffect(() => {
    if (!query || !focused) {
      setSuggestions([]);
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      api.suggest(query).then((result) => {
        if (current) setSuggestions(result.list);
      }, () => undefined);
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [query, focused]);

  const commit = (raw: string, final: boolean) => {
    const { done, rest } = splitTyped(raw, final);
    onAdd(done);
    setText(rest);
  };

  const choose = (a: Address) => {
    onAdd([{ name: a.name, address: a.address, valid: true }]);
    setText('');
    setSuggestions([]);
    input.current?.focus();
  };

  const chosen = new Set(value.map((r) => r.address.toLowerCase()));
  const shown = suggestions.filter((a) => !chosen.has(a.address.toLowerCase())).slice(0, MAX_SUGGESTIONS);
  const listId = `mw-suggest-${name}`;

  return (
    <div className="mw-compose-row-wrap">
      <div className={`mw-compose-row mw-addr${error ? ' has-error' : ''}`} data-field={name}>
        <label className="mw-compose-label" htmlFor={`mw-addr-${name}`}>{label}</label>
        <div className="mw-chips" onClick={() => input.current?.focus()}>
          {value.map((r, i) => (
            <span
              key={`${r.address}-${i}`}
              className={!r.valid ? 'mw-chip is-invalid' : refused?.has(r.address.toLowerCase()) ? 'mw-chip is-invalid is-refused' : 'mw-chip'}
              title={r.name ? `${r.name} <${r.address}>` : r.address}
              data-address={r.address}
            >
              <span className="mw-chip-text">{r.name || r.address}</span>
              <button
                type="button"
                className="mw-chip-remove"
                aria-label={m.removeRecipient(r.address)}
                onClick={(e) => {
                  e.stopPropagation();
                  onRemove(i);
                }}
              >
                <CloseOutline />
              </button>
            </span>
          ))}
          <input
            ref={input}
            id={`mw-addr-${name}`}
            name={name}
            className="mw-chip-input"
            type="text"
            inputMode="email"
            autoComplete="off"
            autoCapitalize="off"
            autoCorrect="off"
            spellCheck={false}
            enterKeyHint="next"
            role="combobox"
            aria-expanded={shown.length > 0}
            aria-controls={listId}
            aria-autocomplete="list"
            placeholder={value.length === 0 ? m.recipientsPlaceholder : ''}
            value={text}
            onChange={(e) => commit(e.target.value, false)}
            onFocus={() => setFocused(true)}
            onBlur={() => {
              setFocused(false);
              commit(text, true);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                if (shown.length > 0 && !text.includes('@')) choose(shown[0]!);
                else commit(text, true);
              } else if (e.key === 'Backspace' && text === '' && value.length > 0) {
                onRemove(value.length - 1);
              }
            }}
          />
        </div>
        {extra}
      </div>
      {shown.length > 0 && (
        <ul className="mw-suggest" id={listId} role="listbox">
          {shown.map((a) => (
            <li
              key={a.address}
              role="option"
              aria-selected={false}
              // Keep the focus in the input, so its blur does not turn the half-typed text into a chip.
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(a)}
            >
              {a.name && <span className="mw-suggest-name">{a.name}</span>}
              <span className="mw-suggest-address">{a.address}</span>
            </li>
          ))}
        </ul>
      )}
      {error && <div className="mw-field-error" role="alert">{error}</div>}
    </div>
  );
}
