import { getLanguage, useLanguage, type Language, type Messages } from './index';
import { en } from './en';
import { enNotes } from './en-notes';
import { zh } from './zh';
import { zhNotes } from './zh-notes';

export type NotesMessages = Messages & typeof enNotes;

// The notes pages load on demand, and so do their strings (first-screen budget: e2e/tests/budget.test.ts).
const catalogues: Record<Language, NotesMessages> = {
  en: { ...en, ...enNotes },
  zh: { ...zh, ...zhNotes },
};

export function useNotesT(): NotesMessages {
  return catalogues[useLanguage()];
}

export function notesMessages(): NotesMessages {
  return catalogues[getLanguage()];
}
