-- Placeholder: filled by the slice that owns this migration.
SELECT 1;
