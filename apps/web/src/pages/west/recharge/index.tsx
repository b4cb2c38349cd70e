import { useEffect, useState } from 'react';
import { Button, Input, Toast } from 'antd-mobile';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { isAmount } from '@mailwing/shared';
import { westApi } from '../../../api/west';
import { fill, useWestT, type WestMessages } from '../../../i18n/west';
import { Page } from '../../../ui/page';
import { toastError, useWestSession, yuanText } from '../west-ui';

export default function WestRechargePage() {
  const m = useWestT();
  const navigate = useNavigate();
  const has = useWestSession();
  const [params, setParams] = useSearchParams();
  const sandboxNo = params.get('sandbox');
  const [providers, setProviders] = useState<string[]>([]);
  const [provider, setProvider] = useState('');
  const [amount, setAmount] = useState('100');
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState<{ no: string; cents: number }>();
  const [balance, setBalance] = useState<number>();

  useEffect(() => {
    if (!has) return;
    void westApi.providers().then((p) => { setProviders(p.providers); setProvider(p.providers[0] ?? ''); }).catch((err: unknown) => toastError(err, m));
    // The balance being topped up, so the customer sees what they have before paying more.
    void westApi.me(true).then((me) => setBalance(me.balanceCents)).catch(() => undefined);
  }, [has, m]);
  useEffect(() => {
    if (!sandboxNo) return;
    void westApi.payments().then((p) => {
      const hit = p.list.find((x) => x.outTradeNo === sandboxNo && x.status === 'pending');
      if (hit) setPending({ no: hit.outTradeNo, cents: hit.amountCents });
    }).catch(() => undefined);
  }, [sandboxNo]);

  const start = async () => {
    const v = amount.trim();
    if (!isAmount(v) || Number(v) < 1) return setError(m.westAmountInvalid);
    setError(undefined);
    const cents = Math.round(Number(v) * 100);
    try {
      const r = await westApi.topup(provider, cents);
      if (r.payUrl.startsWith('#')) setParams({ sandbox: r.outTradeNo });
      else window.location.assign(r.payUrl);
    } catch (err) {
      toastError(err, m);
    }
  };
  const paySandbox = async () => {
    if (!pending) return;
    try {
      await westApi.sandboxPay(pending.no);
      Toast.show({ content: m.westPaid });
      navigate('/pages/west/user/index', { replace: true });
    } catch (err) {
      toastError(err, m);
    }
  };

  return (
    <Page title={m.westRechargeTitle} back="/pages/west/user/index">
      <div className="mw-west">
        {balance !== undefined && <div className="mw-west-item"><span className="sub">{m.westBalance}</span><span data-testid="west-recharge-balance">{yuanText(balance)}</span></div>}
        {pending ? (
          <Button block color="primary" size="large" onClick={() => void paySandbox()} data-testid="west-sandbox-pay">
            {fill(m.westSandboxPay, { amount: yuanText(pending.cents) })}
          </Button>
        ) : (
          <>
            <label className="mw-field">
              <span className="mw-field-label">{m.westAmount}</span>
              <Input name="amount" inputMode="decimal" value={amount} onChange={setAmount} />
            </label>
            {error && <div className="mw-field-error" role="alert">{error}</div>}
            <label className="mw-field">
              <span className="mw-field-label">{m.westProvider}</span>
              <select className="mw-west-select" value={provider} onChange={(e) => setProvider(e.target.value)} name="provider">
                {providers.map((p) => <option key={p} value={p}>{m[`westProvider_${p}` as keyof WestMessages] as string}</option>)}
              </select>
            </label>
            <Button block color="primary" size="large" onClick={() => void start()} disabled={!provider}>{m.westPayNow}</Button>
          </>
        )}
      </div>
    </Page>
  );
}
