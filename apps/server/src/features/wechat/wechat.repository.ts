import type { Db } from '../../db/connect.js';

/** The mailbox a WeChat account (openid) is bound to. */
export async function boundUserId(db: Db, openid: string): Promise<number | undefined> {
  const row = await db.selectFrom('wechat_bindings').select('user_id').where('openid', '=', openid).executeTakeFirst();
  return row?.user_id;
}

/**
 * One WeChat account per mailbox: binding another replaces the old one. The openid's
 * row is locked first, so two mailboxes binding the same WeChat at once cannot both win.
 * Returns the user it is bound to afterwards.
 */
export async function bind(db: Db, userId: number, openid: string, unionid: string | null): Promise<number> {
  return db.transaction().execute(async (trx) => {
    await trx.insertInto('wechat_bindings').values({ openid, unionid, user_id: userId }).onConflict((oc) => oc.column('openid').doNothing()).execute();
    const row = await trx.selectFrom('wechat_bindings').select('user_id').where('openid', '=', openid).forUpdate().executeTakeFirstOrThrow();
    if (row.user_id === userId) await trx.deleteFrom('wechat_bindings').where('user_id', '=', userId).where('openid', '<>', openid).execute();
    return row.user_id;
  });
}
