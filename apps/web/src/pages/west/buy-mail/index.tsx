import { useEffect, useState } from 'react';
import { Button, Input, Stepper, Toast } from 'antd-mobile';
import { useNavigate } from 'react-router-dom';
import type { WestPlan } from '@mailwing/shared';
import { westApi } from '../../../api/west';
import { fill, useWestT } from '../../../i18n/west';
import { useLanguage } from '../../../i18n';
import { westSession } from '../../../state/west-session';
import { Page } from '../../../ui/page';
import { toastError, yuanText } from '../west-ui';

// Plans are public; buying needs a west session. The price shown is the price checked
// at purchase (the server refuses with west.price_changed if it moved meanwhile).

export default function WestBuyMailPage() {
  const m = useWestT();
  const language = useLanguage();
  const navigate = useNavigate();
  const [plans, setPlans] = useState<WestPlan[]>([]);
  const [planId, setPlanId] = useState('');
  const [seats, setSeats] = useState(5);
  const [years, setYears] = useState(1);
  const [price, setPrice] = useState<number>();
  const [v, setV] = useState({ domain: '', companyName: '', adminUser: 'admin', adminPassword: '' });

  useEffect(() => {
    void westApi.plans().then((p) => { setPlans(p.list); setPlanId(p.list[0]?.id ?? ''); }).catch((err: unknown) => toastError(err, m));
  }, [m]);
  useEffect(() => {
    if (!planId) return;
    void westApi.quote(planId, seats, years).then((q) => setPrice(q.priceCents)).catch(() => setPrice(undefined));
  }, [planId, seats, years]);

  const plan = plans.find((p) => p.id === planId);
  const buy = async () => {
    if (!westSession.token()) return navigate('/pages/west/login/index');
    if (price === undefined) return;
    try {
      await westApi.buy({ planId, seats, years, priceCents: price, ...v, domain: v.domain.trim().toLowerCase() });
      Toast.show({ content: m.westBought });
      navigate('/pages/west/user/index');
    } catch (err) {
      toastError(err, m);
    }
  };
  const text = (key: keyof typeof v, label: string, type: 'text' | 'password' = 'text', placeholder = '') => (
    <label className="mw-field">
      <span className="mw-field-label">{label}</span>
      <Input name={key} type={type} placeholder={placeholder} value={v[key]} onChange={(x) => setV({ ...v, [key]: x })} />
    </label>
  );

  return (
    <Page title={m.westBuyTitle} back="/pages/west/user/index">
      <div className="mw-west">
        <label className="mw-field">
          <span className="mw-field-label">{m.westPlan}</span>
          <select className="mw-west-select" value={planId} onChange={(e) => setPlanId(e.target.value)} name="plan">
            {plans.map((p) => <option key={p.id} value={p.id}>{language === 'zh' ? p.nameZh : p.nameEn}</option>)}
          </select>
        </label>
        {plan && <div className="sub">{fill(m.westPerSeatYear, { price: yuanText(plan.seatYearCents) })}</div>}
        {text('domain', m.westDomain, 'text', m.westDomainPlaceholder)}
        {text('companyName', m.westCompanyName)}
        {text('adminUser', m.westAdminUser)}
        {v.domain && <div className="sub">{v.adminUser}@{v.domain.trim().toLowerCase()}</div>}
        {text('adminPassword', m.westAdminPassword, 'password', m.westPasswordPlaceholder)}
        <div className="mw-west-item"><span>{m.westSeats}</span><Stepper min={plan?.minSeats ?? 1} max={plan?.maxSeats ?? 1000} value={seats} onChange={setSeats} /></div>
        <div className="mw-west-item"><span>{m.westYears}</span><Stepper min={1} max={10} value={years} onChange={setYears} /></div>
        <div className="mw-west-item"><span>{m.westPrice}</span><span className="mw-west-price" data-testid="west-price">{price === undefined ? '—' : yuanText(price)}</span></div>
        <Button block color="primary" size="large" onClick={() => void buy()} disabled={price === undefined}>
          {fill(m.westPayFromBalance, { price: price === undefined ? '' : yuanText(price) })}
        </Button>
      </div>
    </Page>
  );
}
