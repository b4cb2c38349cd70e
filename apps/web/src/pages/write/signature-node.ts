import { Node, type Editor } from '@tiptap/react';
import { signatureBlock, SIGNATURE_CLASS, type SignaturePlace } from '../../state/signature-block';

/** The editor keeps the signature as one block node, so its wrapper survives editing. */
export const SignatureNode = Node.create({
  name: 'signatureBlock',
  group: 'block',
  content: 'block+',
  defining: true,
  parseHTML: () => [{ tag: `div.${SIGNATURE_CLASS}` }, { tag: 'div[data-mw-signature]' }],
  renderHTML: () => ['div', { class: SIGNATURE_CLASS, 'data-mw-signature': '' }, 0],
});

/**
 * Puts `signature` in place of the editor's signature block (or removes the block when
 * null) as one edit of that range: the rest of the document, the cursor and the undo
 * history of the writer's text are left as they were.
 */
export function swapSignature(editor: Editor, signature: string | null, place: SignaturePlace): void {
  let found: { from: number; to: number } | null = null;
  editor.state.doc.descendants((node, pos) => {
    if (found) return false;
    if (node.type.name === SignatureNode.name) {
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
