import type { Messages } from '../../i18n';

/** Pull-to-refresh wording (spec §9 lists), for spreading into PullToRefresh. */
export function pullTexts(m: Messages) {
  return { pullingText: m.pullToRefresh, canReleaseText: m.releaseToRefresh, refreshingText: m.refreshing, completeText: m.refreshed };
}
