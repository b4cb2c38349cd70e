import type { Kysely } from 'kysely';
import { runScript } from '../sql-script.js';

// Issue 13: every process keeps the sessions it has checked for a short while
// (features/auth/session-cache.ts). A change that can end a session or change what it
// may do is announced on the event channel, so that every process forgets the affected
// sessions when the change commits, whichever process (or psql) made it: a session
// deleted or its expiry moved; a user deleted, disabled, moved or given another role or
// address; a company deleted or its status changed. Row triggers: PostgreSQL delivers one
// notification per distinct payload in a transaction, so a bulk change announces each
// user once. The columns here are the ones session-cache.ts names (SESSION_FACTS).
export async function up(db: Kysely<unknown>): Promise<void> {
  await runScript(db, `
CREATE FUNCTION mw_session_facts_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- OLD: the key the kept sessions were kept under, for a deletion and an update alike.
  IF TG_TABLE_NAME = 'companies' THEN
    PERFORM pg_notify('mailwing_events', json_build_object('c', OLD.id)::text);
  ELSIF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('mailwing_events', json_build_object('a', OLD.id)::text);
  ELSE
    PERFORM pg_notify('mailwing_events', json_build_object('a', OLD.user_id)::text);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER sessions_facts_changed AFTER DELETE OR UPDATE OF token_hash, user_id, expires_at ON sessions
  FOR EACH ROW EXECUTE FUNCTION mw_session_facts_changed();
CREATE TRIGGER users_facts_changed AFTER DELETE OR UPDATE OF email, status, role, company_id ON users
  FOR EACH ROW EXECUTE FUNCTION mw_session_facts_changed();
CREATE TRIGGER companies_facts_changed AFTER DELETE OR UPDATE OF status ON companies
  FOR EACH ROW EXECUTE FUNCTION mw_session_facts_changed();
`);
}
