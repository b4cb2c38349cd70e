import { z } from 'zod';

// Company announcements (issue 17, scope 5).

const id = z.string({ error: 'is required' }).regex(/^\d{1,15}$/, 'is not a valid id');
export const PublishAnnouncementInput = z.object({
  title: z.string({ error: 'is required' }).trim().min(1, 'is required').max(200, 'is too long'),
  body: z.string({ error: 'is required' }).trim().min(1, 'is required').max(20_000, 'is too long'),
  /** Department ids, comma-separated (the API posts forms); empty: everyone in the company. */
  departments: z.string().max(4000).regex(/^(\d{1,15}(,\d{1,15})*)?$/, 'is not a list of ids').default(''),
});
export const AnnouncementIdInput = z.object({ id });
export const Announcement = z.object({ id: z.string(), title: z.string(), body: z.string(), createdAt: z.string(), read: z.boolean() });
export type Announcement = z.infer<typeof Announcement>;
export const AnnouncementList = z.object({ list: z.array(Announcement), unread: z.number().int() });
export type AnnouncementList = z.infer<typeof AnnouncementList>;
export const AdminAnnouncement = z.object({
  id: z.string(), title: z.string(), body: z.string(), createdAt: z.string(), departments: z.array(z.string()),
  audience: z.number().int(), reads: z.number().int(),
});
export type AdminAnnouncement = z.infer<typeof AdminAnnouncement>;
export const AdminAnnouncementList = z.object({ list: z.array(AdminAnnouncement) });
export type AdminAnnouncementList = z.infer<typeof AdminAnnouncementList>;
