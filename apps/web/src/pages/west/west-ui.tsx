import { useEffect } from 'react';
import { Toast } from 'antd-mobile';
import { useNavigate } from 'react-router-dom';
import { ApiError } from '../../api/request';
import type { WestMessages } from '../../i18n/west';
import { westSession } from '../../state/west-session';

/** The user's words for a refusal, by its reason code; a field's own message otherwise. */
export function westError(err: unknown, m: WestMessages): string {
  if (err instanceof ApiError) {
    if (err.reason && m.westReason[err.reason]) return m.westReason[err.reason]!;
    if (err.code === 422) return m.westFieldInvalid;
    if (err.code === 429) return m.westReason['rate.limited']!;
  }
  return m.requestFailed;
}

export function toastError(err: unknown, m: WestMessages): void {
  Toast.show({ content: westError(err, m) });
}

/** West pages that need a customer: without a west session, to the west login. */
export function useWestSession(): boolean {
  const navigate = useNavigate();
  const has = Boolean(westSession.token());
  useEffect(() => {
    if (!has) navigate('/pages/west/login/index', { replace: true });
  }, [has, navigate]);
  return has;
}

/** Money as ¥300.00; a debit puts its sign before the currency (-¥300.00), never "¥-300.00". */
/**
 * A date in the app's language, not the browser's (a zh page showed 11/24/2026): 2026年11月24日 or
 * Nov 24, 2026, which no reader mistakes for day/month.
 */
export const dayText = (unixSeconds: number, language: string) =>
  new Date(unixSeconds * 1000).toLocaleDateString(language === 'zh' ? 'zh-CN' : 'en-US', { year: 'numeric', month: 'short', day: 'numeric' });

export const yuanText = (fen: number) => `${fen < 0 ? '-' : ''}¥${(Math.abs(fen) / 100).toFixed(2)}`;

/** A ledger amount: always signed, so a credit (+¥500.00) and a debit (-¥300.00) read alike in zh and en. */
export const signedYuanText = (fen: number) => `${fen > 0 ? '+' : ''}${yuanText(fen)}`;
