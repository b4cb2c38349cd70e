import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ConfigProvider } from 'antd-mobile';
import enUS from 'antd-mobile/es/locales/en-US';
import zhCN from 'antd-mobile/es/locales/zh-CN';
import { RouterProvider } from 'react-router-dom';
import { useLanguage } from './i18n';
import { router } from './router';
import './styles.css';

function App() {
  const language = useLanguage();
  return (
    <ConfigProvider locale={language === 'zh' ? zhCN : enUS}>
      <RouterProvider router={router} />
    </ConfigProvider>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// Live updates follow the session: open while logged in, closed at logout.
// Loaded after the first screen; nothing on it waits for the stream.
void import('./api/live').then(({ startLiveUpdates }) => startLiveUpdates());

// Installable PWA: the worker caches the app shell only (see sw.js).
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => {
    navigator.serviceWorker.register('./sw.js').catch((error: unknown) => console.warn('service worker not registered', error));
  });
}
