import { useEffect, useRef, type ReactNode } from 'react';
import { Dialog, Input } from 'antd-mobile';
import { LinkOutline, PictureOutline } from 'antd-mobile-icons';
import { EditorContent, useEditor, useEditorState, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Link from '@tiptap/extension-link';
import Image from '@tiptap/extension-image';
import { useT } from '../../i18n';
import { SignatureNode } from './signature-node';

export interface RichEditorProps {
  /** The HTML the editor starts from; later changes of this prop are ignored (remount to reset). */
  initialHtml: string;
  placeholder: string;
  onChange: (html: string, text: string) => void;
  /** Uploads an image and resolves to its URL, or null when it was refused (the caller says why). */
  onImage: (file: File) => Promise<string | null>;
  /** More toolbar buttons (compose's template button). */
  tools?: ReactNode;
  /** Hands out the editor once made (swapping the signature, inserting a template at the cursor). */
  onEditor?: (editor: Editor | null) => void;
}

interface ToolProps {
  label: string;
  active?: boolean;
  onPress: () => void;
  children: ReactNode;
}

function Tool({ label, active = false, onPress, children }: ToolProps) {
  return (
    <button
      type="button"
      className={active ? 'mw-tool is-active' : 'mw-tool'}
      aria-label={label}
      aria-pressed={active}
      title={label}
      // Keep the selection in the editor: a focus move would lose it on phones.
      onMouseDown={(e) => e.preventDefault()}
      onClick={onPress}
    >
      {children}
    </button>
  );
}

// Toolbar glyphs drawn as text: the icon set has no bold/italic/list glyphs,
// and a few characters cost nothing to download.
function Glyph({ children, className }: { children: ReactNode; className?: string }) {
  return <span className={`mw-tool-glyph ${className ?? ''}`} aria-hidden="true">{children}</span>;
}

async function askLink(m: ReturnType<typeof useT>, current: string): Promise<string | null> {
  let value = current || 'https://';
  const ok = await Dialog.confirm({
    title: m.linkAddress,
    content: (
      <Input
        className="mw-link-input"
        type="url"
        defaultValue={value}
        autoFocus
        aria-label={m.linkAddress}
        onChange={(v) => {
          value = v;
        }}
      />
    ),
    confirmText: m.ok,
    cancelText: m.cancel,
  });
  const url = value.trim();
  if (!ok || url === '' || url === 'https://') return null;
  return /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`;
}

function Toolbar({ editor, onImage, tools }: { editor: Editor; onImage: RichEditorProps['onImage']; tools?: ReactNode }) {
  const m = useT();
  const picker = useRef<HTMLInputElement>(null);
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e.isActive('bold'),
      italic: e.isActive('italic'),
      bulletList: e.isActive('bulletList'),
      orderedList: e.isActive('orderedList'),
      link: e.isActive('link'),
      blockquote: e.isActive('blockquote'),
    }),
  });

  const link = async () => {
    if (state.link) {
      editor.chain().focus().extendMarkRange('link').unsetLink().run();
      return;
    }
    const href = await askLink(m, '');
    if (!href) return;
    if (editor.state.selection.empty) {
      editor.chain().focus().insertContent({ type: 'text', text: href, marks: [{ type: 'link', attrs: { href } }] }).run();
    } else {
      editor.chain().focus().extendMarkRange('link').setLink({ href }).run();
    }
  };

  const pickImage = async (file: File | undefined) => {
    if (!file) return;
    const src = await onImage(file);
    if (src) editor.chain().focus().setImage({ src, alt: file.name }).run();
  };

  return (
    <div className="mw-toolbar" role="toolbar" aria-label={m.titleWrite}>
      <Tool label={m.bold} active={state.bold} onPress={() => editor.chain().focus().toggleBold().run()}><Glyph className="is-bold">B</Glyph></Tool>
      <Tool label={m.italic} active={state.italic} onPress={() => editor.chain().focus().toggleItalic().run()}><Glyph className="is-italic">I</Glyph></Tool>
      <Tool label={m.bulletList} active={state.bulletList} onPress={() => editor.chain().focus().toggleBulletList().run()}><Glyph>•≡</Glyph></Tool>
      <Tool label={m.orderedList} active={state.orderedList} onPress={() => editor.chain().focus().toggleOrderedList().run()}><Glyph>1≡</Glyph></Tool>
      <Tool label={state.link ? m.removeLink : m.link} active={state.link} onPress={() => void link()}><LinkOutline /></Tool>
      <Tool label={m.quote} active={state.blockquote} onPress={() => editor.chain().focus().toggleBlockquote().run()}><Glyph className="is-quote">”</Glyph></Tool>
      <Tool label={m.image} onPress={() => picker.current?.click()}><PictureOutline /></Tool>
      {tools}
      <input
        ref={picker}
        type="file"
        accept="image/*"
        hidden
        data-role="inline-image"
        onChange={(e) => {
          void pickImage(e.target.files?.[0]);
          e.target.value = '';
        }}
      />
    </div>
  );
}

/** The mail body: TipTap with a phone-sized toolbar. Loaded on demand (it is most of the compose page's weight). */
export default function RichEditor({ initialHtml, placeholder, onChange, onImage, tools, onEditor }: RichEditorProps) {
  // The editor keeps the callbacks it was created with; this one always calls the latest.
  const changed = useRef(onChange);
  changed.current = onChange;
  const editor = useEditor({
    extensions: [
      // Headings, code and rules stay on so a quoted original keeps its shape;
      // the toolbar offers what a phone user writes with.
      StarterKit.configure({ link: false }),
      Link.configure({ openOnClick: false, autolink: true, defaultProtocol: 'https' }),
      // Small data: images are how a signature or template carries a logo (issue 16).
      Image.configure({ inline: false, allowBase64: true }),
      SignatureNode,
    ],
    content: initialHtml,
    editorProps: {
      attributes: { class: 'mw-editor-content', 'aria-label': placeholder, 'aria-multiline': 'true', role: 'textbox' },
    },
    onUpdate: ({ editor: e }) => changed.current(e.getHTML(), e.getText()),
  });
  const empty = useEditorState({ editor, selector: ({ editor: e }) => e?.isEmpty ?? true });
  const handOut = useRef(onEditor);
  handOut.current = onEditor;
  useEffect(() => {
    handOut.current?.(editor);
    return () => handOut.current?.(null);
  }, [editor]);
  if (!editor) return null;
  return (
    <div className="mw-editor">
      <Toolbar editor={editor} onImage={onImage} tools={tools} />
      <div className="mw-editor-area">
        {empty && <div className="mw-editor-placeholder" aria-hidden="true">{placeholder}</div>}
        <EditorContent editor={editor} />
      </div>
    </div>
  );
}
