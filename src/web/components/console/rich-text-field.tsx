import '@mantine/tiptap/styles.css';
import { Input } from '@mantine/core';
import { Link, RichTextEditor, type RichTextEditorLabels } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useId } from 'react';

/** Spanish toolbar labels; media embed and image upload are not offered. */
const labels: Partial<RichTextEditorLabels> = {
  boldControlLabel: 'Negritas',
  italicControlLabel: 'Cursiva',
  underlineControlLabel: 'Subrayado',
  strikeControlLabel: 'Tachado',
  clearFormattingControlLabel: 'Quitar formato',
  linkControlLabel: 'Enlace',
  unlinkControlLabel: 'Quitar enlace',
  bulletListControlLabel: 'Lista con viñetas',
  orderedListControlLabel: 'Lista numerada',
  h2ControlLabel: 'Título',
  h3ControlLabel: 'Subtítulo',
  h4ControlLabel: 'Encabezado menor',
  blockquoteControlLabel: 'Cita',
  hrControlLabel: 'Línea horizontal',
  undoControlLabel: 'Deshacer',
  redoControlLabel: 'Rehacer',
  linkEditorInputLabel: 'Dirección del enlace',
  linkEditorInputPlaceholder: 'https://ejemplo.com/',
  linkEditorExternalLink: 'Abrir en una pestaña nueva',
  linkEditorInternalLink: 'Abrir en la misma pestaña',
  linkEditorSave: 'Guardar',
};

type Props = { label: string; value: string; onChange: (html: string) => void; error?: string; required?: boolean };

/** The event detail editor; the server sanitises what it produces before storing it. */
export function RichTextField({ label, value, onChange, error, required }: Props) {
  const labelId = useId();
  const editor = useEditor({
    extensions: [
      StarterKit.configure({ link: false, heading: { levels: [2, 3, 4] }, code: false, codeBlock: false }),
      Link.configure({ openOnClick: false, protocols: ['http', 'https', 'mailto'] }),
    ],
    content: value,
    immediatelyRender: false,
    editorProps: { attributes: { 'aria-labelledby': labelId, role: 'textbox', 'aria-multiline': 'true' } },
    onUpdate: ({ editor: current }) => onChange(current.isEmpty ? '' : current.getHTML()),
  });

  // the record arrives after the editor exists: load it once
  useEffect(() => {
    if (editor && value && editor.isEmpty) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  return (
    <Input.Wrapper label={label} error={error} required={required} labelElement="div" id={labelId}>
      <RichTextEditor editor={editor} labels={labels} mt={4}>
        <RichTextEditor.Toolbar>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
            <RichTextEditor.Underline />
            <RichTextEditor.Strikethrough />
            <RichTextEditor.ClearFormatting />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.H2 />
            <RichTextEditor.H3 />
            <RichTextEditor.H4 />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Blockquote />
            <RichTextEditor.Hr />
            <RichTextEditor.BulletList />
            <RichTextEditor.OrderedList />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Link />
            <RichTextEditor.Unlink />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Undo />
            <RichTextEditor.Redo />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
        <RichTextEditor.Content />
      </RichTextEditor>
    </Input.Wrapper>
  );
}
