import { useEffect, useState } from 'react';
import { List, SpinLoading } from 'antd-mobile';
import { CheckOutline } from 'antd-mobile-icons';
import { UNDO_SEND_MAX_S } from '@mailwing/shared';
import { undoSendApi } from '../../../api/undo-send';
import { useReadWriteT } from '../../../i18n/read-write';
import { Page } from '../../../ui/page';
import { ErrorState } from '../../../ui/state-view';

const CHOICES = [0, 5, 10, 20, UNDO_SEND_MAX_S];

/** Undo send (issue 14): how long the server holds a sent mail so it can be taken back. */
export default function SettingUndoSendPage() {
  const m = useReadWriteT();
  const [seconds, setSeconds] = useState<number | null>(null);
  const [failed, setFailed] = useState(false);

  const load = () => {
    setFailed(false);
    undoSendApi.getSetting().then((s) => setSeconds(s.seconds), () => setFailed(true));
  };
  useEffect(load, []);

  const choose = (value: number) => {
    if (value === seconds) return;
    const before = seconds;
    setSeconds(value);
    // A failure is toasted by the request layer; the old choice shows again.
    undoSendApi.setSetting(value).then((s) => setSeconds(s.seconds), () => setSeconds(before));
  };

  return (
    <Page title={m.undoSendSetting} back="/pages/setting/index">
      {failed ? <ErrorState onRetry={load} /> : seconds === null ? <div className="mw-center"><SpinLoading color="primary" /></div> : (
        <List header={m.undoSendHint}>
          {CHOICES.map((value) => (
            <List.Item
              key={value}
              data-seconds={value}
              arrowIcon={false}
              extra={value === seconds ? <CheckOutline className="mw-check" /> : null}
              onClick={() => choose(value)}
            >
              {value === 0 ? m.undoSendOff : m.undoSendSeconds(value)}
            </List.Item>
          ))}
        </List>
      )}
    </Page>
  );
}
