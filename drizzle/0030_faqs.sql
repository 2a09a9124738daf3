-- Hand-written (issue 28, FAQ Management): a hospital's frequently asked questions, shown on
-- /faqs to its staff and, when public, on the public page /h/<slug>/faq (no sign-in).
--  * answer: the author's plain text with a tiny formatting syntax (paragraphs, "- " and "1. "
--    lists, [text](https://...) links), parsed and escaped on output (src/shared/faq-format.ts);
--    HTML tags are refused on input (docs/decisions/035-faqs-and-safe-formatting.md).
--  * suggestion_key: which of the 8 pre-built FAQs a row came from ('Add All' is idempotent:
--    one row per key and hospital, ON CONFLICT DO NOTHING).
CREATE TABLE faqs (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  question text NOT NULL,
  answer text NOT NULL,
  category text NOT NULL DEFAULT 'general',
  sort_order integer NOT NULL DEFAULT 0,
  is_public boolean NOT NULL DEFAULT true,
  suggestion_key text,
  created_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT faqs_pkey PRIMARY KEY (hospital_id, id),
  CONSTRAINT faqs_question_check CHECK (length(question) BETWEEN 1 AND 300),
  CONSTRAINT faqs_answer_check CHECK (length(answer) BETWEEN 1 AND 5000),
  CONSTRAINT faqs_category_check
    CHECK (category IN ('general', 'technical', 'billing', 'features', 'troubleshooting')),
  CONSTRAINT faqs_sort_order_check CHECK (sort_order BETWEEN 0 AND 100000)
);
--> statement-breakpoint
CREATE INDEX faqs_hospital_order_idx ON faqs (hospital_id, sort_order, created_at, id);
--> statement-breakpoint
CREATE UNIQUE INDEX faqs_hospital_suggestion_idx ON faqs (hospital_id, suggestion_key)
  WHERE suggestion_key IS NOT NULL;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON faqs TO app_user;
--> statement-breakpoint
ALTER TABLE faqs ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE faqs FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON faqs
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
