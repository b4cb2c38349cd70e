// A console-home section (issue 17): held mail waiting for a decision (auditors reach it at /pages/audit/index too).
export default { key: 'audit-held', order: 41, titleKey: 'auditHeldTitle', path: '/pages/audit/index', icon: 'audit-held' };
