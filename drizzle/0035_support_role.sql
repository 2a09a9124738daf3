-- Hand-written (issue 39): the support role. A super admin inside a hospital under a grant acts
-- as `support` (shared/permissions.ts): reads what the hospital admin reads and corrects
-- ordinary data, but never changes the team, security settings, provider credentials, exports,
-- deletes, backups or support access. The hospital's admin may widen a grant to 'full_admin'
-- explicitly; that visit acts as `admin`. Grants stored before this migration stay 'support'
-- (the narrower one). `support` is never a user's role: users.role's CHECK (0015) is unchanged.
ALTER TABLE support_access_grants ADD COLUMN scope text NOT NULL DEFAULT 'support';
--> statement-breakpoint
ALTER TABLE support_access_grants
  ADD CONSTRAINT support_access_grants_scope_check CHECK (scope IN ('support', 'full_admin'));
