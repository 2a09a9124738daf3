-- Issue 27, Settings → Appearance: each user's own theme (light, dark, system), primary colour
-- and compact mode, remembered on the server (GET/PUT /api/me/preferences). Users are a
-- platform table (a super admin belongs to no hospital), so the preferences live on the row.
-- Keys left out take the defaults of src/shared/schemas/preferences.ts.
ALTER TABLE users ADD COLUMN preferences jsonb NOT NULL DEFAULT '{}'::jsonb;
--> statement-breakpoint
ALTER TABLE users ADD CONSTRAINT users_preferences_object_check
  CHECK (jsonb_typeof(preferences) = 'object');
