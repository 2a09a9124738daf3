-- Hand-written (docs/decisions/010): every change that must end or alter a signed-in session
-- sends NOTIFY arogya_revoked, so each instance drops its cached sessions at once (LISTEN on
-- DATABASE_DIRECT_URL, or PGlite's in-process listen). Payloads: 's:<session id>',
-- 'u:<user id>', '*' (everything). NOTIFY is delivered at COMMIT only, works through
-- PgBouncer in transaction mode, and identical payloads in one transaction are sent once.
CREATE FUNCTION arogya_notify_session_revoked() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('arogya_revoked', 's:' || OLD.id);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION arogya_notify_user_revoked() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  -- users rows carry their id; accounts rows name their user.
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('arogya_revoked', 'u:' || OLD.id);
  ELSE
    PERFORM pg_notify('arogya_revoked', 'u:' || OLD.user_id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION arogya_notify_all_revoked() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('arogya_revoked', '*');
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Sign-out, revoke-session(s), a suspension (the admin plugin deletes the sessions), a
-- password change that revokes other sessions, expired-session clean-up.
CREATE TRIGGER sessions_revoked_on_delete AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION arogya_notify_session_revoked();
--> statement-breakpoint
-- Any change other than the sliding idle deadline moving forward (session-policy.ts), which
-- happens about once a minute per active session and needs no invalidation: an earlier
-- expiry (to the past included), another token, user, start time or impersonator.
CREATE TRIGGER sessions_revoked_on_update AFTER UPDATE ON sessions
  FOR EACH ROW WHEN (
    NEW.expires_at < OLD.expires_at
    OR (NEW.token, NEW.user_id, NEW.created_at, NEW.impersonated_by)
      IS DISTINCT FROM (OLD.token, OLD.user_id, OLD.created_at, OLD.impersonated_by)
  ) EXECUTE FUNCTION arogya_notify_session_revoked();
--> statement-breakpoint
CREATE TRIGGER sessions_revoked_on_truncate AFTER TRUNCATE ON sessions
  FOR EACH STATEMENT EXECUTE FUNCTION arogya_notify_all_revoked();
--> statement-breakpoint
-- What a session's actor is made of (access.ts): suspension, deactivation, role, hospital,
-- platform rights, two-factor state, email.
CREATE TRIGGER users_revoked_on_update AFTER UPDATE ON users
  FOR EACH ROW WHEN (
    (NEW.role, NEW.banned, NEW.ban_expires, NEW.is_active, NEW.hospital_id,
     NEW.is_super_admin, NEW.two_factor_enabled, NEW.email)
      IS DISTINCT FROM
    (OLD.role, OLD.banned, OLD.ban_expires, OLD.is_active, OLD.hospital_id,
     OLD.is_super_admin, OLD.two_factor_enabled, OLD.email)
  ) EXECUTE FUNCTION arogya_notify_user_revoked();
--> statement-breakpoint
CREATE TRIGGER users_revoked_on_delete AFTER DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION arogya_notify_user_revoked();
--> statement-breakpoint
CREATE TRIGGER users_revoked_on_truncate AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION arogya_notify_all_revoked();
--> statement-breakpoint
-- A password set, changed or removed: every session of that user is looked up again.
CREATE TRIGGER accounts_revoked_on_password AFTER UPDATE ON accounts
  FOR EACH ROW WHEN (NEW.password IS DISTINCT FROM OLD.password)
  EXECUTE FUNCTION arogya_notify_user_revoked();
--> statement-breakpoint
CREATE TRIGGER accounts_revoked_on_delete AFTER DELETE ON accounts
  FOR EACH ROW EXECUTE FUNCTION arogya_notify_user_revoked();
