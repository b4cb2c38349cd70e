import { Suspense, type ComponentType, type ReactNode } from 'react';
import { createHashRouter } from 'react-router-dom';
import AddressPage from './pages/address';
import StartPage from './pages/index';
import ListTabPage from './pages/list-tab';
import LoginPage from './pages/login';
import MboxListPage from './pages/mbox/mbox-list';
import { MailboxParam } from './pages/mbox/mailbox-param';
import { loadAccountPages } from './pages/setting/load-account-pages';
import SettingPage from './pages/setting';
import { RequireSession } from './ui/require-session';
import { TAB_ROUTES, TabLayout } from './ui/tab-layout';
// Spec §9's page-load delay and time-outs (issue 15): lazy() fails a chunk late by 120 s.
import { lazy, PageBoundary, PageLoading } from './ui/lazy-page';

// First screen (spec §2's entry, login and the four tabs) is in the main
// bundle; every other page loads on demand to keep the first download small.
const ReadMailPage = lazy(() => import('./pages/read-mail'));
const ListPage = lazy(() => import('./pages/list'));
const DirListPage = lazy(() => import('./pages/modules/dir-list'));
const ChooseDirPage = lazy(() => import('./pages/modules/choose-dir'));
const CreateDirPage = lazy(() => import('./pages/modules/create-dir'));
const TagListPage = lazy(() => import('./pages/modules/tag-list'));
// Calendar (issue 18): its two pages load as one chunk (see security-area.ts).
const calendarArea = () => import('./pages/modules/calendar/area');
const CalendarPage = lazy(() => calendarArea().then((m) => ({ default: m.CalendarPage })));
const EventEditPage = lazy(() => calendarArea().then((m) => ({ default: m.EventEditPage })));
const SearchMailPage = lazy(() => import('./pages/modules/search-mail'));
// The account area's pages share one chunk (pages/setting/account-pages.ts): settings,
// notifications, version, agreement, binding a mailbox (issue 7).
const SettingLanguagePage = lazy(() => loadAccountPages().then((m) => ({ default: m.SettingLanguagePage })));
const SettingAboutPage = lazy(() => loadAccountPages().then((m) => ({ default: m.SettingAboutPage })));
const SettingProfilePage = lazy(() => loadAccountPages().then((m) => ({ default: m.SettingProfilePage })));
const SettingNicknamePage = lazy(() => loadAccountPages().then((m) => ({ default: m.SettingNicknamePage })));
const InformationPage = lazy(() => loadAccountPages().then((m) => ({ default: m.InformationPage })));
const VersionPage = lazy(() => loadAccountPages().then((m) => ({ default: m.VersionPage })));
const AgreementPage = lazy(() => loadAccountPages().then((m) => ({ default: m.AgreementPage })));
const BindMailboxPage = lazy(() => loadAccountPages().then((m) => ({ default: m.BindMailboxPage })));
// Account security (issue 7): verification, reset, security, password, devices and
// the gesture lock share one chunk (pages/security-area.ts).
const securityArea = () => import('./pages/security-area');
const VerifyPage = lazy(() => securityArea().then((m) => ({ default: m.VerifyPage })));
const ForgetPage = lazy(() => securityArea().then((m) => ({ default: m.ForgetPage })));
const SettingSecurityPage = lazy(() => securityArea().then((m) => ({ default: m.SettingSecurityPage })));
const SettingPasswordPage = lazy(() => securityArea().then((m) => ({ default: m.SettingPasswordPage })));
const SettingDevicesPage = lazy(() => securityArea().then((m) => ({ default: m.SettingDevicesPage })));
const SetAreaPage = lazy(() => securityArea().then((m) => ({ default: m.SetAreaPage })));
const CodeAreaPage = lazy(() => securityArea().then((m) => ({ default: m.CodeAreaPage })));
const WritePage = lazy(() => import('./pages/write'));
const AttachUploadPage = lazy(() => import('./pages/modules/other-attach-upload'));
const WriteResultPage = lazy(() => import('./pages/modules/write-result'));
const ReplySuccessPage = lazy(() => import('./pages/modules/reply-success'));
const NotFoundPage = lazy(() => import('./pages/not-found'));
// Address book and company directory (issue 6)
const ContactPage = lazy(() => import('./pages/address/contact'));
const GroupsPage = lazy(() => import('./pages/address/groups'));
const GroupPage = lazy(() => import('./pages/address/group'));
const TransferPage = lazy(() => import('./pages/address/transfer'));
const RulesPage = lazy(() => import('./pages/address/rules'));
const AddressChoosePage = lazy(() => import('./pages/address-choose'));
const ChooseMemberPage = lazy(() => import('./pages/modules/choose-member'));
const MemberDetailPage = lazy(() => import('./pages/modules/member-detail'));
const MemberEditPage = lazy(() => import('./pages/modules/member-edit'));
const SearchMemberPage = lazy(() => import('./pages/modules/search-member'));
// Mail rules (issue 16): signatures, templates, filter rules, auto-reply, other mailboxes; one chunk.
const rulesArea = () => import('./pages/mail-rules-area');
const SettingSignaturePage = lazy(() => rulesArea().then((m) => ({ default: m.SettingSignaturePage })));
const SettingTemplatePage = lazy(() => rulesArea().then((m) => ({ default: m.SettingTemplatePage })));
const AdminTemplatePage = lazy(() => rulesArea().then((m) => ({ default: m.AdminTemplatePage })));
const SettingFilterPage = lazy(() => rulesArea().then((m) => ({ default: m.SettingFilterPage })));
const SettingFilterEditPage = lazy(() => rulesArea().then((m) => ({ default: m.SettingFilterEditPage })));
const SettingAutoReplyPage = lazy(() => rulesArea().then((m) => ({ default: m.SettingAutoReplyPage })));
const SettingPopPage = lazy(() => rulesArea().then((m) => ({ default: m.SettingPopPage })));
const SettingPopEditPage = lazy(() => rulesArea().then((m) => ({ default: m.SettingPopEditPage })));
// Reading and writing mail (issue 14): the undo-send setting.
const readWriteArea = () => import('./pages/read-write-area');
const SettingUndoSendPage = lazy(() => readWriteArea().then((m) => ({ default: m.SettingUndoSendPage })));
// Offline-first (issue 15): mail written offline waits here.
const OutboxPage = lazy(() => import('./pages/outbox'));
// Conversations (issue 14, scope 2): the conversation-view setting.
const SettingConversationPage = lazy(() => readWriteArea().then((m) => ({ default: m.SettingConversationPage })));
// Network disk (issue 18): its two pages load as one chunk.
const diskArea = () => import('./pages/modules/disk/area');
const DiskPage = lazy(() => diskArea().then((m) => ({ default: m.DiskPage })));
const DiskSharePage = lazy(() => diskArea().then((m) => ({ default: m.DiskSharePage })));
// Cloud notes (issue 18): its two pages load as one chunk.
const notesArea = () => import('./pages/modules/notes/area');
const NotesPage = lazy(() => notesArea().then((m) => ({ default: m.NotesPage })));
const NoteEditPage = lazy(() => notesArea().then((m) => ({ default: m.NoteEditPage })));
// The admin console's core pages (issue 17) and their route table load as one chunk.
const AdminRoutes = lazy(() => import('./pages/admin/area'));
// The west storefront (issue 19): its pages and their route table load as one chunk.
const WestRoutes = lazy(() => import('./pages/west/area'));
// Issue 17: outgoing-mail audit and company lists, one lazy area.
const auditArea = () => import('./pages/admin/audit-area');
const AdminAuditPage = lazy(() => auditArea().then((m) => ({ default: m.AdminAuditPage })));
const AdminListsPage = lazy(() => auditArea().then((m) => ({ default: m.AdminListsPage })));
const AuditListPage = lazy(() => auditArea().then((m) => ({ default: m.AuditListPage })));
const AuditPreviewPage = lazy(() => auditArea().then((m) => ({ default: m.AuditPreviewPage })));
const AuditLinkPage = lazy(() => auditArea().then((m) => ({ default: m.AuditLinkPage })));
// Mail migration and announcements (issue 17): the console's two pages and the user's list, one chunk.
const migrateArea = () => import('./pages/admin/migrate/area');
const AdminMigratePage = lazy(() => migrateArea().then((m) => ({ default: m.AdminMigratePage })));
const AdminAnnouncementsPage = lazy(() => migrateArea().then((m) => ({ default: m.AdminAnnouncementsPage })));
const AnnouncementsPage = lazy(() => migrateArea().then((m) => ({ default: m.AnnouncementsPage })));
// Aliases and mail groups (issue 17): one chunk.
const groupsArea = () => import('./pages/admin/groups/area');
const AdminAliasesPage = lazy(() => groupsArea().then((m) => ({ default: m.AdminAliasesPage })));
const AdminGroupsPage = lazy(() => groupsArea().then((m) => ({ default: m.AdminGroupsPage })));
// People, departments and quotas (issue 17, scope 2): the console page's own chunk.
const AdminPeoplePage = lazy(() => import('./pages/admin/people/area').then((m) => ({ default: m.AdminPeoplePage })));
// Location pages (issue 15 §6): the map library loads with them only.
const ChooseLocationPage = lazy(() => import('./pages/choose-location'));
const OpenLocationPage = lazy(() => import('./pages/open-location'));

// Attachment preview and video playback (issue 14): one chunk; pdf.js is the PDF preview's own.
const attachArea = () => import('./pages/attach/area');
const AttachIndexPage = lazy(() => attachArea().then((m) => ({ default: m.AttachIndexPage })));
const AttachPreviewPage = lazy(() => attachArea().then((m) => ({ default: m.AttachPreviewPage })));
const VideoPage = lazy(() => attachArea().then((m) => ({ default: m.VideoPage })));

function lazyPage(Page: ComponentType, guarded = true): ReactNode {
  const page = <PageBoundary><Suspense fallback={<PageLoading />}><Page /></Suspense></PageBoundary>;
  return guarded ? <RequireSession>{page}</RequireSession> : page;
}

const guard = (node: ReactNode) => <RequireSession>{node}</RequireSession>;

export const router = createHashRouter([
  { path: '/', element: <StartPage /> },
  { path: '/pages/index/index', element: <StartPage /> },
  { path: '/pages/login/index', element: <LoginPage /> },
  { path: '/pages/verify/index', element: lazyPage(VerifyPage, false) },
  { path: '/pages/forget/index', element: lazyPage(ForgetPage, false) },
  // The lock screen checks the session itself: the guard sends locked pages to it.
  { path: '/pages/other/codeArea', element: lazyPage(CodeAreaPage, false) },
  { path: '/pages/other/setArea', element: lazyPage(SetAreaPage) },
  { path: '/pages/modules/setting-security/index', element: lazyPage(SettingSecurityPage) },
  { path: '/pages/modules/setting-password/index', element: lazyPage(SettingPasswordPage) },
  { path: '/pages/modules/setting-devices/index', element: lazyPage(SettingDevicesPage) },
  { path: '/pages/modules/setting-pop/index', element: lazyPage(SettingPopPage) },
  { path: '/pages/modules/setting-pop-edit/index', element: lazyPage(SettingPopEditPage) },
  {
    element: guard(<TabLayout />),
    children: [
      { path: TAB_ROUTES.inbox, element: <ListTabPage /> },
      { path: TAB_ROUTES.mailbox, element: <MboxListPage /> },
      { path: TAB_ROUTES.address, element: <AddressPage /> },
      { path: TAB_ROUTES.settings, element: <SettingPage /> },
    ],
  },
  // A push notification's link names the mailbox (&email=): switch to it first, but
  // only once past the guard, so a link cannot switch (and so unlock) a locked app.
  { path: '/pages/read-mail/index', element: guard(<MailboxParam>{lazyPage(ReadMailPage, false)}</MailboxParam>) },
  { path: '/pages/list/index', element: lazyPage(ListPage) },
  { path: '/pages/modules/dir-list/index', element: lazyPage(DirListPage) },
  { path: '/pages/modules/choose-dir/index', element: lazyPage(ChooseDirPage) },
  { path: '/pages/modules/create-dir/index', element: lazyPage(CreateDirPage) },
  { path: '/pages/modules/tag-list/index', element: lazyPage(TagListPage) },
  { path: '/pages/modules/calendar/index', element: lazyPage(CalendarPage) },
  { path: '/pages/modules/calendar/edit', element: lazyPage(EventEditPage) },
  { path: '/pages/modules/search-mail/index', element: lazyPage(SearchMailPage) },
  { path: '/pages/modules/setting-language/index', element: lazyPage(SettingLanguagePage) },
  { path: '/pages/modules/setting-about/index', element: lazyPage(SettingAboutPage) },
  { path: '/pages/modules/setting-profile/index', element: lazyPage(SettingProfilePage) },
  { path: '/pages/modules/setting-nickname/index', element: lazyPage(SettingNicknamePage) },
  { path: '/pages/information/index', element: lazyPage(InformationPage) },
  { path: '/pages/other/version', element: lazyPage(VersionPage) },
  // The agreement is readable before login too (a login page may link to it).
  { path: '/pages/other/agreement', element: lazyPage(AgreementPage, false) },
  { path: '/pages/mbox/bind', element: lazyPage(BindMailboxPage) },
  { path: '/pages/write/index', element: lazyPage(WritePage) },
  { path: '/pages/modules/other-attach-upload/index', element: lazyPage(AttachUploadPage) },
  { path: '/pages/modules/write-result/index', element: lazyPage(WriteResultPage) },
  { path: '/pages/modules/reply-success/index', element: lazyPage(ReplySuccessPage) },
  { path: '/pages/address/contact', element: lazyPage(ContactPage) },
  { path: '/pages/address/groups', element: lazyPage(GroupsPage) },
  { path: '/pages/address/group', element: lazyPage(GroupPage) },
  { path: '/pages/address/transfer', element: lazyPage(TransferPage) },
  { path: '/pages/address/rules', element: lazyPage(RulesPage) },
  { path: '/pages/address-choose/index', element: lazyPage(AddressChoosePage) },
  { path: '/pages/modules/choose-member/index', element: lazyPage(ChooseMemberPage) },
  { path: '/pages/modules/member-detail/index', element: lazyPage(MemberDetailPage) },
  { path: '/pages/modules/member-edit/index', element: lazyPage(MemberEditPage) },
  { path: '/pages/modules/search-member/index', element: lazyPage(SearchMemberPage) },
  { path: '/pages/modules/setting-signature/index', element: lazyPage(SettingSignaturePage) },
  { path: '/pages/modules/setting-template/index', element: lazyPage(SettingTemplatePage) },
  { path: '/pages/admin/template/index', element: lazyPage(AdminTemplatePage) },
  { path: '/pages/modules/setting-filter/index', element: lazyPage(SettingFilterPage) },
  { path: '/pages/modules/setting-filter-edit/index', element: lazyPage(SettingFilterEditPage) },
  { path: '/pages/modules/setting-autoreply/index', element: lazyPage(SettingAutoReplyPage) },
  { path: '/pages/modules/disk/index', element: lazyPage(DiskPage) },
  // A share link's recipient has no session here.
  { path: '/pages/modules/disk/share', element: lazyPage(DiskSharePage, false) },
  { path: '/pages/modules/notes/index', element: lazyPage(NotesPage) },
  { path: '/pages/admin/migrate/index', element: lazyPage(AdminMigratePage) },
  { path: '/pages/admin/announcements/index', element: lazyPage(AdminAnnouncementsPage) },
  { path: '/pages/admin/aliases/index', element: lazyPage(AdminAliasesPage) },
  { path: '/pages/admin/groups/index', element: lazyPage(AdminGroupsPage) },
  { path: '/pages/modules/announcements/index', element: lazyPage(AnnouncementsPage) },
  { path: '/pages/admin/people/index', element: lazyPage(AdminPeoplePage) },
  { path: '/pages/modules/notes/edit', element: lazyPage(NoteEditPage) },
  { path: '/pages/modules/setting-undo-send/index', element: lazyPage(SettingUndoSendPage) },
  { path: '/pages/outbox/index', element: lazyPage(OutboxPage) },
  { path: '/pages/modules/setting-conversation/index', element: lazyPage(SettingConversationPage) },
  { path: '/pages/west/*', element: lazyPage(WestRoutes, false) },
  { path: '/pages/admin/*', element: lazyPage(AdminRoutes) },
  { path: '/pages/admin/audit/index', element: lazyPage(AdminAuditPage) },
  { path: '/pages/admin/lists/index', element: lazyPage(AdminListsPage) },
  { path: '/pages/audit/index', element: lazyPage(AuditListPage) },
  { path: '/pages/audit/preview', element: lazyPage(AuditPreviewPage) },
  // The auditor's notification-mail link works without a session: the token is the credential.
  { path: '/pages/audit/link/index', element: lazyPage(AuditLinkPage, false) },
  { path: '/choose-location', element: lazyPage(ChooseLocationPage) },
  // A mail's place link: its reader may have no session here.
  { path: '/open-location', element: lazyPage(OpenLocationPage, false) },
  // Attachment preview and video playback (issue 14, scope 5).
  { path: '/pages/attach/index', element: lazyPage(AttachIndexPage) },
  { path: '/pages/attach/preview', element: lazyPage(AttachPreviewPage) },
  { path: '/pages/modules/video/index', element: lazyPage(VideoPage) },
  { path: '*', element: lazyPage(NotFoundPage, false) },
]);
