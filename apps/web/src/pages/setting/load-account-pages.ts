/** The one place that loads the account area's chunk (one preload list in the first screen, not one per use). */
export const loadAccountPages = () => import('./account-pages');
