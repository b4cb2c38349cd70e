import { Dialog, Input, Toast } from 'antd-mobile';
import type { AddressMessages } from '../../i18n/address';

/**
 * Asks for a name (a group's). An empty one is refused with spec §5's message
 * and the dialog stays open; so it does when `save` throws (the server
 * refused, and has said why). Resolves to whether it was saved.
 */
export function askName(m: AddressMessages, title: string, initial: string, save: (name: string) => Promise<void>): Promise<boolean> {
  let value = initial;
  return new Promise((resolve) => {
    const dialog = Dialog.show({
      title,
      content: (
        <Input
          className="mw-ab-prompt"
          name="group-name"
          defaultValue={initial}
          placeholder={m.abGroupName}
          maxLength={50}
          autoFocus
          clearable
          onChange={(v) => {
            value = v;
          }}
        />
      ),
      closeOnAction: false,
      onClose: () => resolve(false),
      actions: [[
        { key: 'cancel', text: m.cancel, onClick: () => dialog.close() },
        {
          key: 'ok',
          text: m.ok,
          bold: true,
          onClick: async () => {
            const name = value.trim();
            if (!name) {
              Toast.show({ content: m.abGroupNameRequired });
              return;
            }
            try {
              await save(name);
            } catch {
              return;
            }
            resolve(true);
            dialog.close();
          },
        },
      ]],
    });
  });
}
