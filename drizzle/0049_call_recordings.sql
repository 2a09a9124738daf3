-- Hand-written (issue 41, voice calls; recordings).
--  * calls.recording_bytes: the size of the recording copied into the storage module
--    (recording_key names it). The hospital's disk quota sums it (src/server/storage/quota.ts,
--    kind 'recordings'), so usage is derived from the rows, never a counter.
--  * calls.recording_note: why a recorded call has no recording (the storage quota was full,
--    the file was too large, the provider had none), in a receptionist's words.
--  * The partial index serves the quota's sum and the retention job's oldest-first scan.
ALTER TABLE calls ADD COLUMN recording_bytes bigint;
--> statement-breakpoint
ALTER TABLE calls ADD COLUMN recording_note text;
--> statement-breakpoint
ALTER TABLE calls ADD CONSTRAINT calls_recording_bytes_check CHECK (recording_bytes >= 0 AND (recording_bytes IS NULL) = (recording_key IS NULL));
--> statement-breakpoint
CREATE INDEX calls_hospital_recording_idx ON calls (hospital_id, ended_at) INCLUDE (recording_bytes) WHERE recording_key IS NOT NULL;
