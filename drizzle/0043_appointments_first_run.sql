-- Issue 40, item 14: Live Monitoring counts WhatsApp messages sent (whatsapp_sent) beside email
-- and SMS.
ALTER TABLE activities DROP CONSTRAINT activities_type_check;
--> statement-breakpoint
ALTER TABLE activities ADD CONSTRAINT activities_type_check CHECK (activity_type in ('call_start', 'call_end', 'email_sent', 'sms_sent', 'whatsapp_sent', 'login', 'logout', 'patient_added', 'appointment_scheduled'));
