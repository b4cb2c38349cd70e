import type { Config } from '../../config.js';
import { AlipayProvider } from './alipay.js';
import type { PaymentProvider } from './provider.js';
import { SandboxProvider } from './sandbox.js';

/** The providers this installation offers: the sandbox unless turned off, Alipay when configured. */
export function westProviders(config: Config, fetcher: typeof fetch = fetch): PaymentProvider[] {
  const list: PaymentProvider[] = [];
  if (config.west.sandboxPay) list.push(new SandboxProvider());
  if (config.west.alipay) {
    list.push(new AlipayProvider(config.west.alipay, {
      notifyUrl: `${config.west.publicUrl}/h5/west/pay/notify/alipay`, returnUrl: `${config.west.publicUrl}/#/pages/west/recharge/index`,
    }, fetcher));
  }
  return list;
}
