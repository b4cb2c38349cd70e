import { useEffect, useState } from 'react';
import { Button, Dialog, Toast } from 'antd-mobile';
import { useSearchParams } from 'react-router-dom';
import type { WestCompanyDetail, WestPlan } from '@mailwing/shared';
import { ApiError } from '../../../api/request';
import { westLifeApi } from '../../../api/west-life';
import { useLanguage } from '../../../i18n';
import { fill } from '../../../i18n/west';
import { useLifeT, type LifeMessages } from '../../../i18n/west-life';
import { Page } from '../../../ui/page';
import { dayText, toastError, useWestSession, yuanText } from '../west-ui';


function lifeError(err: unknown, m: LifeMessages): void {
  if (err instanceof ApiError && err.reason && m.lifeReason[err.reason]) Toast.show({ content: m.lifeReason[err.reason] });
  else toastError(err, m);
}

/** Plan, seats, expiry and status of one bought company, the DNS records to publish, renew and add seats (issue 19 §6). */
export default function WestMailDetailPage() {
  const m = useLifeT();
  const has = useWestSession();
  const lang = useLanguage();
  const day = (s: number) => dayText(s, lang);
  const [params] = useSearchParams();
  const id = params.get('id') ?? '';
  const [c, setC] = useState<WestCompanyDetail>();
  const [plan, setPlan] = useState<WestPlan | null>();

  const load = async () => {
    try {
      const [d, plans] = await Promise.all([westLifeApi.detail(id), westLifeApi.plans()]);
      setC(d);
      setPlan(plans.list.find((p) => p.id === d.plan || p.code === d.plan) ?? null);
    } catch (err) {
      lifeError(err, m);
    }
  };
  useEffect(() => { if (has && id) void load(); }, [has, id]);

  const buy = async (what: 'renew' | 'seats') => {
    if (!c || !plan) return;
    try {
      const quote = what === 'renew' ? await westLifeApi.quote(plan.id, c.seats, 1) : await westLifeApi.seatsQuote(c.id, 5);
      const yes = await Dialog.confirm({ content: fill(m.lifePrice, { price: yuanText(quote.priceCents) }), confirmText: m.lifePay, cancelText: m.cancel });
      if (!yes) return;
      if (what === 'renew') await westLifeApi.renew(c.id, 1, quote.priceCents);
      else await westLifeApi.addSeats(c.id, 5, quote.priceCents);
      Toast.show({ content: m.lifeDone });
      await load();
    } catch (err) {
      lifeError(err, m);
    }
  };

  const planName = plan ? (lang === 'en' ? plan.nameEn : plan.nameZh) : c?.plan;
  return (
    <Page title={m.lifeDetailTitle} back="/pages/west/user/index">
      <div className="mw-west">
        {c && (
          <>
            <div className="mw-west-section">{[c.name, c.domains[0]?.domain].filter(Boolean).join(' · ')}</div>
            <div className="mw-west-item"><div className="sub">{m.lifePlan}</div><div>{planName}</div></div>
            <div className="mw-west-item"><div className="sub">{m.lifeSeats}</div><div data-testid="life-seats">{c.usedSeats} / {c.seats}</div></div>
            <div className="mw-west-item"><div className="sub">{m.lifeExpiry}</div><div data-testid="life-expiry">{c.expiresAt ? day(c.expiresAt) : '—'}</div></div>
            <div className="mw-west-item"><div className="sub">{m.lifeStatus}</div><div className={c.status === 'active' ? '' : 'mw-life-warn'}>{m[`lifeStatus_${c.status}`]}</div></div>
            <div className="mw-life-actions">
              <Button color="primary" disabled={!plan} onClick={() => void buy('renew')}>{m.lifeRenew}</Button>
              <Button disabled={!plan || c.status === 'suspended'} onClick={() => void buy('seats')}>{m.lifeAddSeats}</Button>
            </div>
            {plan === null && <div className="mw-west-item sub">{m.lifeNoPrice}</div>}
            <div className="mw-west-section">{m.lifeDns}</div>
            {c.domains.flatMap((d) => d.records).map((r) => (
              <div className="mw-life-record" key={`${r.type}:${r.name}`}>
                <div><b>{r.type}</b> {r.name}</div>
                <code>{r.value}</code>
              </div>
            ))}
          </>
        )}
      </div>
    </Page>
  );
}
