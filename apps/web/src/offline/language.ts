import { getLanguage } from '../i18n';

// The banner is plain DOM, outside React: it redraws when <html lang> changes (setLanguage sets it).
export function subscribeLanguage(listener: () => void): void {
  let last = getLanguage();
  new MutationObserver(() => {
    if (getLanguage() === last) return;
    last = getLanguage();
    listener();
  }).observe(document.documentElement, { attributes: true, attributeFilter: ['lang'] });
}
