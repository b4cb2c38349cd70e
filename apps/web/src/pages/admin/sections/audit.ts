// A console-home section (issue 17): outgoing-mail audit rules.
export default { key: 'audit', order: 40, titleKey: 'auditRulesTitle', path: '/pages/admin/audit/index', icon: 'audit' };
