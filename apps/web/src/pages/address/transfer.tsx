import { useRef, useState } from 'react';
import { Button, List, ProgressBar } from 'antd-mobile';
import { DownlandOutline, UploadOutline } from 'antd-mobile-icons';
import type { ImportResult } from '@mailwing/shared';
import { contactsApi, type ExportFormat } from '../../api/contacts';
import { ApiError } from '../../api/request';
import { useAddressT } from '../../i18n/address';
import { Page } from '../../ui/page';
import { ADDRESS_ROUTES } from './hooks';
import './address.css';

const EXPORTS: Array<[ExportFormat, string]> = [['vcf', 'vCard (.vcf)'], ['csv', 'CSV (.csv)']];

/** Import contacts from a vCard or CSV file (bad lines are listed with their reason), and export them. */
export default function TransferPage() {
  const m = useAddressT();
  const input = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<ImportResult | null>(null);
  const [error, setError] = useState('');

  const importFile = async (file: File) => {
    setResult(null);
    setError('');
    setProgress(0);
    try {
      setResult(await contactsApi.import(file, setProgress));
    } catch (e) {
      // The request layer has toasted the reason; keep it on the page too.
      setError(e instanceof ApiError && e.message ? e.message : m.abImportFailed);
    } finally {
      setProgress(null);
    }
  };

  return (
    <Page title={m.titleTransfer} back={ADDRESS_ROUTES.tab}>
      <List header={m.abImport}>
        <List.Item description={m.abImportHint}>
          <Button color="primary" fill="outline" size="small" loading={progress !== null} onClick={() => input.current?.click()}>
            <UploadOutline /> {m.abChooseFile}
          </Button>
          <input
            ref={input}
            className="mw-ab-file"
            type="file"
            name="file"
            accept=".vcf,.vcard,.csv,text/vcard,text/x-vcard,text/csv"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) void importFile(file);
            }}
          />
        </List.Item>
      </List>
      {progress !== null && (
        <div className="mw-ab-result" role="status">
          <ProgressBar percent={progress} text />
        </div>
      )}
      {error && <div className="mw-ab-result mw-upload-error" role="alert">{m.abImportFailed}: {error}</div>}
      {result && (
        <div className="mw-ab-result mw-ab-import-result" role="status">
          <div className="mw-ab-result-count">{m.abImported(result.imported, result.updated)}</div>
          {result.errors.length > 0 && (
            <>
              <div className="mw-gap">{m.abImportErrors(result.errors.length)}</div>
              <ul className="mw-ab-errors">
                {result.errors.map((e) => (
                  <li key={`${e.line}-${e.message}`} data-line={e.line}><b>{m.abLine(e.line)}</b>{e.message}</li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
      <List header={m.abExport} className="mw-gap">
        {EXPORTS.map(([format, label]) => (
          <List.Item key={format} prefix={<DownlandOutline />} arrow={false}>
            <a href={contactsApi.exportUrl(format)} download={`contacts.${format}`} rel="noopener" data-export={format}>{label}</a>
          </List.Item>
        ))}
      </List>
    </Page>
  );
}
