-- Issue 27, Settings → Appearance: each user's own theme (light, dark, system), primary colour
-- and compact mode, remembered on the server (GET/PUT /api/me/preferences). Users are a
-- platform table (a super admin belongs to no hospital), so the preferences live on the row.
-- Only the API writes it (validated by src/shared/schemas/preferences.ts); reading keeps each
-- valid key and gives the defaults for anything else, so no CHECK constraint is needed.
ALTER TABLE users ADD COLUMN preferences jsonb NOT NULL DEFAULT '{}'::jsonb;
