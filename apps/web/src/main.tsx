import 'antd-mobile/es/global';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConfigProvider } from 'antd-mobile';
import enUS from 'antd-mobile/es/locales/en-US';
import zhCN from 'antd-mobile/es/locales/zh-CN';
import { RouterProvider } from 'react-router-dom';
import { useLanguage } from './i18n';
import { router } from './router';
import { afterFirstScreen } from './state/first-screen';
import { appStyleReady } from './ui/app-style';
import { followAccount } from './state/settings';
import { keyboardButtons } from './ui/keyboard';
import './styles.css';

function App() {
  const language = useLanguage();
  return (
    <ConfigProvider locale={language === 'zh' ? zhCN : enUS}>
      <RouterProvider router={router} />
    </ConfigProvider>
  );
}

// The splash (index.html) stays until the style sheet applies: see ui/app-style.ts.
void appStyleReady().then(() =>
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);

// Live updates follow the session: open while logged in, closed at logout. They (and
// the offline layer they start) load once the first screen is shown: nothing on it
// waits for the stream.
void afterFirstScreen().then(() => import('./api/live')).then(({ startLiveUpdates }) => startLiveUpdates());

// Issue 15: controls that are not native buttons still work from the keyboard.
keyboardButtons();

// The account's settings load with each session, for its language (it follows
// the account across devices).
followAccount();

// Installable PWA: the worker caches the app shell and shows push notifications (see sw.js).
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('./sw.js').catch((error: unknown) => console.warn('service worker not registered', error));
  });
  // A tapped notification opens its mail in this window: sw.js sends where to.
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<{ type?: string; url?: string }>) => {
    if (event.data?.type !== 'mailwing:open' || typeof event.data.url !== 'string') return;
    const url = new URL(event.data.url, window.location.href);
    if (url.origin === window.location.origin && url.hash.startsWith('#/')) window.location.hash = url.hash;
  });
}
