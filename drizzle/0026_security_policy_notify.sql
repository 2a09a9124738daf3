-- Issue 27, Settings -> Security: a hospital's security policy (require two-factor, session
-- timeout and its hours) is part of every signed-in actor that the session cache keeps
-- (auth/access.ts, auth/hospital-policy.ts). A change to it must reach every instance at once,
-- like a revoked session: it sends NOTIFY arogya_revoked '*' (migration 0008's function), so each
-- instance looks its sessions up again. Only the policy columns count; the other settings on
-- this row (region, backups) change nothing about sessions.
CREATE TRIGGER hospital_settings_policy_on_insert AFTER INSERT ON hospital_settings
  FOR EACH ROW WHEN (
    (NEW.require_two_factor, NEW.session_timeout, NEW.session_hours)
      IS DISTINCT FROM (false, true, 8)
  ) EXECUTE FUNCTION arogya_notify_all_revoked();
--> statement-breakpoint
CREATE TRIGGER hospital_settings_policy_on_update AFTER UPDATE ON hospital_settings
  FOR EACH ROW WHEN (
    (NEW.require_two_factor, NEW.session_timeout, NEW.session_hours)
      IS DISTINCT FROM (OLD.require_two_factor, OLD.session_timeout, OLD.session_hours)
  ) EXECUTE FUNCTION arogya_notify_all_revoked();
--> statement-breakpoint
CREATE TRIGGER hospital_settings_policy_on_delete AFTER DELETE ON hospital_settings
  FOR EACH ROW EXECUTE FUNCTION arogya_notify_all_revoked();
