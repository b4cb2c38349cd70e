import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router-dom';
import { expect, it } from 'vitest';
import { useGoBack } from './go-back';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function Done() {
  const goBack = useGoBack('/home');
  return <button type="button" onClick={goBack}>done</button>;
}
function Where() {
  return <p data-at={useLocation().pathname} />;
}

async function finish(entries: string[]): Promise<string> {
  const router = createMemoryRouter([{ path: '/edit', element: <Done /> }, { path: '*', element: <Where /> }], { initialEntries: entries, initialIndex: entries.length - 1 });
  const host = document.createElement('div');
  document.body.appendChild(host);
  const root = createRoot(host);
  await act(async () => root.render(<RouterProvider router={router} />));
  // A page reached by navigating inside the app has a key of its own; a reloaded one does not.
  if (entries.length === 1) expect(router.state.location.key).toBe('default');
  await act(async () => host.querySelector('button')!.click());
  const at = router.state.location.pathname;
  root.unmount();
  host.remove();
  return at;
}

it('goes back to the page before when there is one of ours, and to the fallback when opened directly', async () => {
  expect(await finish(['/edit'])).toBe('/home');
  const router = createMemoryRouter([{ path: '/edit', element: <Done /> }, { path: '*', element: <Where /> }], { initialEntries: ['/profile'] });
  const host = document.createElement('div');
  document.body.appendChild(host);
  const root = createRoot(host);
  await act(async () => root.render(<RouterProvider router={router} />));
  await act(async () => router.navigate('/edit'));
  await act(async () => host.querySelector('button')!.click());
  expect(router.state.location.pathname).toBe('/profile');
  root.unmount();
});
