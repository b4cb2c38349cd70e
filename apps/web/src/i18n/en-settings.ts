// English messages of the settings pages behind the Settings tab (issue 7):
// profile, nickname, notifications, version, agreement and binding a mailbox.
// They load with those pages; the tab itself uses en.ts.
export const enSettings = {
  // Page titles, spec §2
  titleProfile: 'My mailbox',
  titleNickname: 'Nickname',
  titleNotify: 'Message notification settings',
  titleVersion: 'Version update',
  titleAgreement: 'User agreement and privacy',
  titleBind: 'Add mailbox',
  // Profile
  avatar: 'Avatar',
  changeAvatar: 'Change avatar',
  avatarUploading: (percent: number) => `Uploading ${percent}%`,
  avatarSaved: 'Avatar updated',
  // Spec §8 "avatar upload failed", with the reason after it.
  avatarFailed: 'Avatar upload failed',
  avatarType: 'Choose a PNG, JPEG, GIF or WebP image.',
  avatarSize: 'The image must be at most 2 MB.',
  address: 'Address',
  notSet: 'Not set',
  storageTitle: 'Storage',
  storageOf: (used: string, quota: string) => `${used} of ${quota}`,
  // Nickname
  nicknamePlaceholder: 'The name people see on your mail',
  nicknameRequired: 'Nickname is required',
  nicknameTooLong: 'At most 40 characters',
  nicknameHint: 'Shown as the sender name of the mail you send.',
  save: 'Save',
  saved: 'Saved',
  // Notifications
  newMailNotify: 'New mail notification',
  newMailNotifyHint: 'Tell me when new mail arrives.',
  thisDevice: 'This device',
  pushOn: 'Notifications on this device',
  pushOnHint: 'Shows new mail here even when the app is closed.',
  pushEnabled: 'Notifications are on for this device',
  pushDisabled: 'Notifications are off for this device',
  pushUnsupported: 'This browser cannot show notifications from Mailwing. Use a current browser, or add Mailwing to your home screen (on iPhone).',
  pushInsecure: 'Notifications need the secure (https) address of Mailwing.',
  pushNoWorker: 'Notifications need the installed app (its service worker), which a development build does not have.',
  pushDenied: 'Notifications are blocked for this site. Allow them in the browser’s site settings, then come back.',
  pushAsk: 'Your browser will ask whether Mailwing may show notifications.',
  pushFailed: 'Notifications could not be turned on. Try again later.',
  quietHours: 'Quiet hours',
  quietHoursHint: 'No notifications in this period.',
  quietStart: 'From',
  quietEnd: 'To',
  nextDay: (time: string) => `${time} next day`,
  timeZone: (zone: string) => `Times are in your device’s time zone (${zone}).`,
  notifyFolders: 'Notify for these folders',
  notifyFoldersHint: 'Spam never notifies.',
  noNotifyFolder: 'No folder is chosen: no new mail will notify.',
  // Version
  currentVersion: 'This version',
  latestVersion: 'Latest version',
  upToDate: 'You are using the latest version.',
  updateAvailable: 'A newer version is available.',
  updateRequired: 'This version is no longer supported. Update to keep using Mailwing.',
  updateNow: 'Update now',
  updating: 'Updating…',
  releaseNotes: 'What’s new',
  releasePage: 'Release page',
  checkAgain: 'Check again',
  // Agreement: a self-hosted service, run by the company that installed it.
  agreementIntro: 'This service is run by your organisation on its own servers with Mailwing, a self-hosted enterprise mail system. These terms describe how the service works and what you agree to when you use it.',
  agreementSections: [
    {
      heading: 'User agreement',
      paragraphs: [
        'Your mailbox is provided by your organisation. Its administrators decide who gets an account, how much storage it has, and how long mail is kept, and they may suspend or remove an account.',
        'Use the service lawfully and in line with your organisation’s rules. Do not send spam, malware, or mail that pretends to come from someone else, and do not try to reach other people’s mailboxes.',
        'Keep your password secret. Turn on second verification where you can, and change your password if you think someone else knows it.',
        'The service is provided as your organisation runs it. Mailwing’s authors do not operate it and cannot restore mail for you: ask your administrator.',
      ],
    },
    {
      heading: 'Privacy',
      paragraphs: [
        'Your mail, contacts and settings are stored on your organisation’s servers. Mailwing sends no data to its authors and contains no advertising or tracking.',
        'Administrators can manage accounts and may be able to access stored data, as your organisation’s policies allow.',
        'The app keeps your sign-in, language and similar preferences on this device. Logging out removes the sign-in.',
        'If you turn on notifications, your browser’s push service delivers them. The notification holds the sender and subject of the new mail, encrypted so that the push service cannot read it; turn notifications off at any time in Message notification settings.',
        'Remote images in mail are blocked until you allow them, so senders cannot see when you open their mail.',
      ],
    },
  ],
  agreementContact: 'Questions about these terms, or about your data: contact your organisation’s mail administrator (postmaster).',
  // Switching and unbinding (the mailbox tab's actions), spec §5, §6
  mbUnbindConfirm: (email: string) => `Unbind ${email}? You can add it again with its password.`,
  mbUnbindCurrent: 'The currently logged-in account cannot be unbound',
  mbSwitched: 'Switched to',
  // Binding another mailbox, spec §6
  bindHint: 'Sign in to another mailbox to add it here. You can then switch between mailboxes without a password.',
  bindSubmit: 'Add mailbox',
  bindDone: (email: string) => `${email} added`,
  bindSelf: 'This mailbox is the one you are using.',
};
