// A console-home section (issue 17): company block and allow lists.
export default { key: 'lists', order: 60, titleKey: 'listsTitle', path: '/pages/admin/lists/index', icon: 'lists' };
