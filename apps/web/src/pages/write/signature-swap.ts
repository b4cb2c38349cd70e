import type { Editor } from '@tiptap/react';
import { signatureBlock, type SignaturePlace } from '../../state/signature-block';

// Type-only use of the editor: the compose page's From row imports this without pulling
// the editor's code out of its lazily loaded chunk.

/** The name of the editor node that holds the signature (signature-node.ts). */
export const SIGNATURE_NODE = 'signatureBlock';

/**
 * Puts `signature` in place of the editor's signature block (or removes the block when
 * null) as one edit of that range: the rest of the document, the cursor and the undo
 * history of the writer's text are left as they were.
 */
export function swapSignature(editor: Editor, signature: string | null, place: SignaturePlace): void {
  let found: { from: number; to: number } | null = null;
  editor.state.doc.descendants((node, pos) => {
    if (found) return false;
    if (node.type.name === SIGNATURE_NODE) {
      found = { from: pos, to: pos + node.nodeSize };
      return false;
    }
    return true;
  });
  const range = found as { from: number; to: number } | null;
  if (range) {
    if (signature === null) editor.chain().deleteRange(range).run();
    else editor.chain().insertContentAt(range, signatureBlock(signature)).run();
    return;
  }
  if (signature === null) return;
  const doc = editor.state.doc;
  const at = place === 'new' || !doc.firstChild ? doc.content.size : doc.firstChild.nodeSize;
  editor.chain().insertContentAt(at, signatureBlock(signature)).run();
}
