import type { Db } from '../../db/connect.js';

export async function findBinding(db: Db, openid: string) {
  return db.selectFrom('wechat_bindings').innerJoin('users', 'users.id', 'wechat_bindings.user_id')
    .select(['users.id as userId', 'users.email', 'users.status']).where('wechat_bindings.openid', '=', openid).executeTakeFirst();
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
