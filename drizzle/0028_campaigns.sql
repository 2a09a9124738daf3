-- Issue 28, Marketing Campaigns (docs/decisions/033-campaigns.md). A campaign is a tenant row
-- under forced RLS keyed (hospital_id, id). Its leads and conversions are never typed in: they
-- are counted from leads (leads.meta_form_id = campaigns.meta_form_id or leads.campaign =
-- campaigns.lead_campaign). Spend is recorded per day in campaign_spend (PATCH
-- /api/campaigns/:id/stats) and campaigns.spent is their sum, kept in the same transaction.
-- manual_leads / manual_conversions are the spec's typed counts, used only while no lead links.
CREATE TABLE campaigns (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  name text NOT NULL,
  type text NOT NULL,
  status text NOT NULL DEFAULT 'draft',
  budget bigint NOT NULL DEFAULT 0,
  spent bigint NOT NULL DEFAULT 0,
  start_date date NOT NULL,
  end_date date,
  target_audience jsonb NOT NULL DEFAULT '{}'::jsonb,
  meta_form_id text,
  lead_campaign text NOT NULL,
  utm_campaign text,
  manual_leads integer,
  manual_conversions integer,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  created_by text,
  PRIMARY KEY (hospital_id, id),
  CONSTRAINT campaigns_status_check CHECK (status IN ('draft', 'active', 'paused', 'completed')),
  CONSTRAINT campaigns_type_check CHECK (type IN ('facebook', 'instagram', 'google_ads', 'whatsapp', 'sms', 'email', 'referral', 'offline')),
  CONSTRAINT campaigns_name_check CHECK (length(name) BETWEEN 1 AND 120),
  CONSTRAINT campaigns_lead_campaign_check CHECK (length(lead_campaign) BETWEEN 1 AND 200),
  CONSTRAINT campaigns_budget_check CHECK (budget >= 0),
  CONSTRAINT campaigns_spent_check CHECK (spent >= 0),
  CONSTRAINT campaigns_dates_check CHECK (end_date IS NULL OR end_date >= start_date),
  CONSTRAINT campaigns_audience_check CHECK (jsonb_typeof(target_audience) = 'object'),
  CONSTRAINT campaigns_manual_counts_check CHECK (
    (manual_leads IS NULL OR manual_leads >= 0)
    AND (manual_conversions IS NULL OR (manual_conversions >= 0 AND manual_conversions <= coalesce(manual_leads, 0)))
  )
);
--> statement-breakpoint
CREATE UNIQUE INDEX campaigns_hospital_name_idx ON campaigns (hospital_id, name);
--> statement-breakpoint
CREATE UNIQUE INDEX campaigns_hospital_lead_campaign_idx ON campaigns (hospital_id, lead_campaign);
--> statement-breakpoint
CREATE UNIQUE INDEX campaigns_hospital_meta_form_idx ON campaigns (hospital_id, meta_form_id) WHERE meta_form_id IS NOT NULL;
--> statement-breakpoint
CREATE INDEX campaigns_hospital_created_idx ON campaigns (hospital_id, created_at DESC, id DESC);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON campaigns TO app_user;
--> statement-breakpoint
ALTER TABLE campaigns ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE campaigns FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON campaigns
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
--> statement-breakpoint
-- Spend recorded for one day of one campaign (the per-day chart's spend line).
CREATE TABLE campaign_spend (
  hospital_id uuid NOT NULL,
  campaign_id uuid NOT NULL,
  day date NOT NULL,
  amount bigint NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  updated_by text,
  PRIMARY KEY (hospital_id, campaign_id, day),
  FOREIGN KEY (hospital_id, campaign_id) REFERENCES campaigns (hospital_id, id) ON DELETE cascade,
  CONSTRAINT campaign_spend_amount_check CHECK (amount >= 0)
);
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON campaign_spend TO app_user;
--> statement-breakpoint
ALTER TABLE campaign_spend ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE campaign_spend FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON campaign_spend
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
--> statement-breakpoint
-- The campaign summary reads a campaign's leads by its two link keys; covering indexes let it
-- count leads and conversions from the index alone.
CREATE INDEX leads_hospital_campaign_idx ON leads (hospital_id, campaign) INCLUDE (meta_form_id, status) WHERE campaign IS NOT NULL;
--> statement-breakpoint
CREATE INDEX leads_hospital_meta_form_idx ON leads (hospital_id, meta_form_id) INCLUDE (campaign, status) WHERE meta_form_id IS NOT NULL;
