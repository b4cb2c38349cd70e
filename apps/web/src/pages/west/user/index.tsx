import { useEffect, useState } from 'react';
import { Button, Toast } from 'antd-mobile';
import { Link, useNavigate } from 'react-router-dom';
import type { WestCompany, WestLedgerEntry, WestMe, WestOrder } from '@mailwing/shared';
import { westApi } from '../../../api/west';
import { useLanguage } from '../../../i18n';
import { fill, useWestT, type WestMessages } from '../../../i18n/west';
import { westSession } from '../../../state/west-session';
import { Page } from '../../../ui/page';
import { dayText, signedYuanText, toastError, useWestSession, yuanText } from '../west-ui';
import { ProfileForm } from './profile-form';
import { TotpSection } from './totp-section';


function provisionText(o: WestOrder, m: WestMessages): string {
  if (o.kind !== 'buy') return '';
  if (o.provision === 'done') return m.westProvisionDone;
  if (o.provision === 'failed') return fill(m.westProvisionFailed, { error: o.provisionError });
  return m.westProvisionPending;
}

export default function WestUserPage() {
  const m = useWestT();
  const navigate = useNavigate();
  const has = useWestSession();
  const language = useLanguage();
  const day = (s: number) => dayText(s, language);
  const [me, setMe] = useState<WestMe>();
  const [orders, setOrders] = useState<WestOrder[]>([]);
  const [companies, setCompanies] = useState<WestCompany[]>([]);
  const [ledger, setLedger] = useState<WestLedgerEntry[]>([]);

  useEffect(() => {
    if (!has) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async (quiet: boolean) => {
      try {
        const [a, b, c, d] = await Promise.all([westApi.me(quiet), westApi.orders(1, quiet), westApi.companies(quiet), westApi.ledger(1, quiet)]);
        if (!live) return;
        setMe(a); setOrders(b.list); setCompanies(c.list); setLedger(d.list);
        // Provisioning finishes in the background: look again (quietly) while an order is being set up.
        // Decided on the answer just read: the old interval read a stale list and polled on for ever.
        if (b.list.some((o) => o.provision === 'pending')) timer = setTimeout(() => void load(true), 5000);
      } catch (err) {
        if (live) toastError(err, m);
      }
    };
    void load(false);
    return () => { live = false; clearTimeout(timer); };
  }, [has]);

  const logout = async () => {
    await westApi.logout().catch(() => undefined);
    westSession.clear();
    navigate('/pages/west/login/index', { replace: true });
  };

  return (
    <Page title={m.westUserTitle} right={<a className="mw-west-link" onClick={() => void logout()}>{m.westLogout}</a>}>
      <div className="mw-west">
        <div className="mw-west-balance">
          <div>{m.westBalance} · {me?.email}</div>
          <div className="amount" data-testid="west-balance">{yuanText(me?.balanceCents ?? 0)}</div>
          <div className="actions">
            <Button size="small" onClick={() => navigate('/pages/west/recharge/index')}>{m.westTopUp}</Button>
            <Button size="small" onClick={() => navigate('/pages/west/buy-mail/index')}>{m.westBuy}</Button>
          </div>
        </div>

        <div className="mw-west-section">{m.westCompanies}</div>
        {companies.length === 0 && <div className="mw-west-item sub">{m.westNothing}</div>}
        {companies.map((c) => (
          // The whole row opens the mailbox details (a lone "›" was a tiny, underlined target).
          <Link className="mw-west-item mw-west-row-link" key={c.id} to={`/pages/west/mail-detail/index?id=${c.id}`}>
            <div>
              <div>{c.name} · {c.domain}</div>
              <div className="sub">{fill(m.westSeatsUsed, { used: c.usedSeats, seats: c.seats })}{c.expiresAt ? ` · ${fill(m.westExpires, { date: day(c.expiresAt) })}` : ''}</div>
            </div>
            <span className="mw-west-chevron" aria-hidden>›</span>
          </Link>
        ))}

        <div className="mw-west-section">{m.westOrders}</div>
        {orders.length === 0 && <div className="mw-west-item sub">{m.westNothing}</div>}
        {orders.map((o) => (
          <div className="mw-west-item" key={o.id} data-testid="west-order">
            <div>
              <div>{m[`westOrder_${o.kind}`]} · {o.domain}</div>
              <div className="sub">{[day(o.time), provisionText(o, m)].filter(Boolean).join(' · ')}</div>
            </div>
            <div>{yuanText(o.priceCents)}</div>
          </div>
        ))}

        <div className="mw-west-section">{m.westLedger}</div>
        {ledger.length === 0 && <div className="mw-west-item sub">{m.westNothing}</div>}
        {ledger.map((e) => (
          <div className="mw-west-item" key={e.id}>
            <div>
              <div>{m[`westKind_${e.kind}` as keyof WestMessages] as string}</div>
              <div className="sub">{day(e.time)} · {m.westBalance} {yuanText(e.balanceAfter)}</div>
            </div>
            <div className={e.amountCents < 0 ? 'mw-west-debit' : 'mw-west-credit'} data-testid="west-ledger-amount">{signedYuanText(e.amountCents)}</div>
          </div>
        ))}

        <div className="mw-west-section">{m.westProfile}</div>
        {me && <ProfileForm m={m} me={me} onSaved={(x) => { setMe(x); Toast.show({ content: m.westSaved }); }} />}

        <div className="mw-west-section">{m.westSecurity}</div>
        {me && <TotpSection m={m} me={me} onChanged={setMe} />}

        <Link className="mw-west-danger-link" to="/pages/west/remove-account/index">{m.westCancelAccount}</Link>
      </div>
    </Page>
  );
}
