// Issue 17, scope 3: the aliases and mail-group pages load as one chunk, out of the first screen.
export { default as AdminAliasesPage } from '../aliases/index';
export { default as AdminGroupsPage } from './index';
