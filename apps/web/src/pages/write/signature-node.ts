import { Node } from '@tiptap/react';
import { SIGNATURE_CLASS } from '../../state/signature-block';
import { SIGNATURE_NODE } from './signature-swap';

/** The editor keeps the signature as one block node, so its wrapper survives editing. */
export const SignatureNode = Node.create({
  name: SIGNATURE_NODE,
  group: 'block',
  content: 'block+',
  defining: true,
  parseHTML: () => [{ tag: `div.${SIGNATURE_CLASS}` }, { tag: 'div[data-mw-signature]' }],
  renderHTML: () => ['div', { class: SIGNATURE_CLASS, 'data-mw-signature': '' }, 0],
});
