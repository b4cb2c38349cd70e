// Batch mode in mail lists: which rows are chosen. A reducer, so the rules
// (long-press enters with that row, toggling the last one off stays in the
// mode, rows that left the list leave the selection) live in one tested place.

export interface Selection {
  /** In batch mode: rows show checkboxes and a tap toggles instead of opening. */
  active: boolean;
  /** Chosen mail ids, in the order they were chosen. */
  ids: readonly string[];
}

export type SelectionAction =
  /** Enters batch mode, with one row chosen when entered by long-pressing it. */
  | { type: 'enter'; id?: string }
  | { type: 'toggle'; id: string }
  /** "Select all loaded": every row the list has loaded so far. */
  | { type: 'selectAll'; ids: readonly string[] }
  | { type: 'clear' }
  | { type: 'exit' }
  /** The list changed (a refresh, a batch action): keep only rows still shown. */
  | { type: 'retain'; ids: readonly string[] };

export const NO_SELECTION: Selection = { active: false, ids: [] };

export function selectionReducer(state: Selection, action: SelectionAction): Selection {
  switch (action.type) {
    case 'enter':
      return { active: true, ids: action.id === undefined ? state.ids : state.ids.includes(action.id) ? state.ids : [...state.ids, action.id] };
    case 'toggle':
      if (!state.active) return state;
      return { active: true, ids: state.ids.includes(action.id) ? state.ids.filter((x) => x !== action.id) : [...state.ids, action.id] };
    case 'selectAll': {
      if (!state.active) return state;
      const have = new Set(state.ids);
      return { active: true, ids: [...state.ids, ...action.ids.filter((id) => !have.has(id))] };
    }
    case 'clear':
      return state.ids.length === 0 ? state : { ...state, ids: [] };
    case 'exit':
      return NO_SELECTION;
    case 'retain': {
      const keep = new Set(action.ids);
      const ids = state.ids.filter((id) => keep.has(id));
      return ids.length === state.ids.length ? state : { ...state, ids };
    }
  }
}

/** True when every loaded row is chosen (and there is at least one). */
export function allChosen(state: Selection, loaded: readonly string[]): boolean {
  if (loaded.length === 0) return false;
  const chosen = new Set(state.ids);
  return loaded.every((id) => chosen.has(id));
}
