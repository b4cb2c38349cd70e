import type { Tag, TagList } from '@mailwing/shared';
import type { Db } from '../../db/connect.js';
import { invalid, notFound } from '../../errors.js';
import * as messages from '../message/message.repository.js';
import * as repo from './tag.repository.js';

const toTag = (r: { id: number; name: string; color: string; count?: number }): Tag => ({ id: String(r.id), name: r.name, color: r.color, count: r.count ?? 0 });

/** A mailbox's own tags ("Mark as"), and applying them to mail. */
export class TagService {
  constructor(private readonly db: Db) {}

  async list(userId: number): Promise<TagList> {
    return { list: (await repo.listTags(this.db, userId)).map(toTag) };
  }

  async create(userId: number, name: string, color: string): Promise<Tag> {
    if (await repo.nameTaken(this.db, userId, name)) throw invalid('name', 'A tag with this name already exists', 'tag.name_taken');
    return toTag(await repo.insertTag(this.db, userId, name, color));
  }

  async update(userId: number, id: string, v: { name?: string; color?: string }): Promise<Tag> {
    const tag = await this.require(userId, id);
    if (v.name !== undefined && (await repo.nameTaken(this.db, userId, v.name, tag.id))) throw invalid('name', 'A tag with this name already exists', 'tag.name_taken');
    await repo.updateTag(this.db, userId, tag.id, v);
    return (await this.list(userId)).list.find((t) => t.id === id)!;
  }

  async remove(userId: number, id: string): Promise<void> {
    const tag = await this.require(userId, id);
    await repo.deleteTag(this.db, userId, tag.id);
  }

  /** Tags or untags a batch; one id that is not the caller's refuses the batch (404) and changes nothing. */
  async apply(userId: number, ids: string[], tagId: string, on: boolean): Promise<number> {
    const tag = await this.require(userId, tagId);
    const wanted = [...new Set(ids.map(Number))];
    return this.db.transaction().execute(async (trx) => {
      const rows = await messages.lockOwned(trx, userId, wanted);
      if (rows.length !== wanted.length) throw notFound();
      return on ? repo.tagMessages(trx, tag.id, wanted) : repo.untagMessages(trx, tag.id, wanted);
    });
  }

  private async require(userId: number, id: string) {
    const tag = await repo.findTag(this.db, userId, Number(id));
    if (!tag) throw notFound('Tag');
    return tag;
  }
}
