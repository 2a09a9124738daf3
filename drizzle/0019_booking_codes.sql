-- Issue 26, "Patients book themselves": the booking page's one-time codes go through the
-- messaging outbox (communications + the send job) like every other message. The visitor is
-- neither a lead nor a patient yet, so a communication may name the booking hold it was sent
-- for instead (queueMessage's `to`, send.service.ts). Deleting a hold deletes its code message.
ALTER TABLE communications ADD COLUMN booking_hold_id uuid;
--> statement-breakpoint
ALTER TABLE communications ADD CONSTRAINT communications_booking_hold_fk
  FOREIGN KEY (hospital_id, booking_hold_id) REFERENCES booking_holds (hospital_id, id) ON DELETE cascade;
--> statement-breakpoint
ALTER TABLE communications DROP CONSTRAINT communications_subject_check;
--> statement-breakpoint
ALTER TABLE communications ADD CONSTRAINT communications_subject_check
  CHECK (lead_id is not null or patient_id is not null or booking_hold_id is not null);
--> statement-breakpoint
CREATE INDEX communications_hospital_booking_hold_idx ON communications (hospital_id, booking_hold_id)
  WHERE booking_hold_id is not null;
