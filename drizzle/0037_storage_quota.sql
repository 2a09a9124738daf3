-- Issue 39: one disk quota per hospital over every stored byte (src/server/storage/quota.ts).
-- Usage is summed from the rows that record each stored file's size, on every upload: these
-- covering indexes (hospital_id first, as every tenant index) make each sum an index-only scan
-- of one hospital's entries. Exports and import files are measured in their folders.
CREATE INDEX support_ticket_attachments_size_idx ON support_ticket_attachments (hospital_id) INCLUDE (size);
--> statement-breakpoint
CREATE INDEX backup_uploads_size_idx ON backup_uploads (hospital_id) INCLUDE (size);
