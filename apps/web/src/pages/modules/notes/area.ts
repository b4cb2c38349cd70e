export { default as NotesPage } from './index';
export { default as NoteEditPage } from './edit';
