import { attachmentKind } from '@mailwing/shared';

// Spec §3: the file extension decides the icon. A coloured tile with a short
// label reads well at list size and costs no image downloads.
const LOOK: Record<ReturnType<typeof attachmentKind>, { label: string; color: string }> = {
  image: { label: 'IMG', color: '#13a8a8' },
  pdf: { label: 'PDF', color: '#e5483f' },
  word: { label: 'DOC', color: '#2b6fd6' },
  excel: { label: 'XLS', color: '#1f9d55' },
  ppt: { label: 'PPT', color: '#e3742f' },
  zip: { label: 'ZIP', color: '#8a6d3b' },
  audio: { label: 'AUD', color: '#9b4dca' },
  video: { label: 'VID', color: '#c2185b' },
  text: { label: 'TXT', color: '#607d8b' },
  file: { label: 'FILE', color: '#8c8c8c' },
};

export function AttachIcon({ name }: { name: string }) {
  const kind = attachmentKind(name);
  const look = LOOK[kind];
  return (
    <span className="mw-attach-icon" data-kind={kind} style={{ background: look.color }} aria-hidden="true">
      {look.label}
    </span>
  );
}
