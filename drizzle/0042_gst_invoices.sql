-- Issue 40 item 3: an invoice's taxable value is the value of its taxable lines only (GST rate
-- above 0); exempt lines (healthcare services, SAC 9993) are its exempt value. Recompute the
-- stored totals of the invoices made before (src/shared/gst-summary.ts computes new ones).
UPDATE invoices i
   SET taxable_total = coalesce((
         SELECT sum(l.taxable_value)
           FROM invoice_lines l
          WHERE l.hospital_id = i.hospital_id
            AND l.invoice_id = i.id
            AND l.gst_rate > 0
       ), 0);
--> statement-breakpoint
-- Issue 40 item 21: the spec's Mark Paid sends only { "status": "paid" }; the payment it records
-- has the method 'unspecified'.
ALTER TABLE payments DROP CONSTRAINT payments_method_check;
--> statement-breakpoint
ALTER TABLE payments ADD CONSTRAINT payments_method_check
  CHECK (method in ('cash', 'upi', 'card', 'bank_transfer', 'insurance', 'unspecified'));
