-- Issue 39 (items 10 and 15): no stored row keeps a booking code or a visitor's number in clear.
-- Booking codes are now derived from the hold under the secrets keyring and stored masked
-- (src/server/modules/booking/booking-code.ts); mask the codes already stored. A message still
-- queued for one (a hold of the last 5 minutes) goes out masked: its visitor asks again.
UPDATE communications
   SET content = '••••••' || substr(content, 7)
 WHERE booking_hold_id IS NOT NULL
   AND content ~ '^[0-9]{6} is your code';
--> statement-breakpoint
-- Per-mobile hold counts are now keyed by an HMAC of the number, not the number itself.
DELETE FROM rate_limit_hits WHERE key LIKE 'booking:hold:mobile:+%';
