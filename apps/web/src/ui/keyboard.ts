// Issue 15 (scope 4): every control reachable and usable by keyboard. Many controls are
// <a onClick> or role="button" elements (ours and antd-mobile's nav bar); rather than
// touch each page, one pass makes them focusable and Enter/Space press them, as a
// native <button> would. Handlers that deal with keys themselves (rows that
// preventDefault) are left alone.
const SELECTOR = '[role=button]:not(button):not([tabindex]), a:not([href]):not([tabindex])';

function fix(): void {
  for (const el of document.querySelectorAll<HTMLElement>(SELECTOR)) {
    if (el.classList.contains('adm-nav-bar-left')) {
      const back = el.querySelector('.adm-nav-bar-back');
      // antd-mobile marks the left side a button even where there is no back arrow.
      if (!back) {
        el.removeAttribute('role');
        continue;
      }
      if (!el.textContent?.trim()) el.setAttribute('aria-label', document.documentElement.lang === 'zh' ? '返回' : 'Back');
    }
    if (!el.getAttribute('role')) el.setAttribute('role', 'button');
    el.tabIndex = 0;
  }
}

export function keyboardButtons(): void {
  fix();
  new MutationObserver(fix).observe(document.body, { childList: true, subtree: true });
  document.addEventListener('keydown', (e) => {
    const t = e.target;
    if (e.defaultPrevented || (e.key !== 'Enter' && e.key !== ' ') || !(t instanceof HTMLElement)) return;
    if (t instanceof HTMLButtonElement || t.getAttribute('role') !== 'button' || t.isContentEditable) return;
    e.preventDefault();
    // The nav bar's back handler sits on its inner back element.
    (t.querySelector<HTMLElement>('.adm-nav-bar-back') ?? t).click();
  });
}
