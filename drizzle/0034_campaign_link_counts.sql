-- Issue 28, the campaign summary over many leads (docs/decisions/033): GET /api/campaigns counts
-- each campaign's leads and conversions. Counting them from the leads on every request is a scan
-- of every linked lead (100,000 leads: hundreds of milliseconds). This table keeps the counts
-- per link key (the lead's campaign text and Meta form id, '' for none), maintained by
-- statement-level triggers on leads in the same transaction as the change, so a read is a
-- handful of rows. A campaign's own counts are then the sum of the groups carrying its keys
-- (modules/campaigns/campaign-counts.ts), exactly as before. Revenue still comes from the
-- converted leads' paid invoices (a partial index below keeps that to the converted leads).
CREATE TABLE campaign_link_counts (
  hospital_id uuid NOT NULL REFERENCES hospitals (id) ON DELETE cascade,
  campaign text NOT NULL,
  meta_form_id text NOT NULL,
  leads integer NOT NULL DEFAULT 0,
  conversions integer NOT NULL DEFAULT 0,
  PRIMARY KEY (hospital_id, campaign, meta_form_id)
);
--> statement-breakpoint
CREATE INDEX campaign_link_counts_form_idx ON campaign_link_counts (hospital_id, meta_form_id) WHERE meta_form_id <> '';
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON campaign_link_counts TO app_user;
--> statement-breakpoint
ALTER TABLE campaign_link_counts ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE campaign_link_counts FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY tenant_isolation ON campaign_link_counts
  USING (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid))
  WITH CHECK (hospital_id = (select nullif(current_setting('app.hospital_id', true), '')::uuid));
--> statement-breakpoint
-- Adds the signed changes of a statement (from its transition tables) to the counters. Rows
-- without either key are not counted. Removals only subtract from existing rows (an erasure
-- that removed the counters first has nothing left to subtract from); additions upsert.
CREATE FUNCTION campaign_link_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO campaign_link_counts AS c (hospital_id, campaign, meta_form_id, leads, conversions)
      SELECT n.hospital_id, coalesce(n.campaign, ''), coalesce(n.meta_form_id, ''),
             count(*), count(*) FILTER (WHERE n.status = 'converted')
        FROM new_rows n
       WHERE n.campaign IS NOT NULL OR n.meta_form_id IS NOT NULL
       GROUP BY 1, 2, 3
       ORDER BY 1, 2, 3
    ON CONFLICT (hospital_id, campaign, meta_form_id) DO UPDATE
      SET leads = c.leads + excluded.leads, conversions = c.conversions + excluded.conversions;
  ELSIF TG_OP = 'DELETE' THEN
    UPDATE campaign_link_counts c
       SET leads = c.leads - d.leads, conversions = c.conversions - d.conversions
      FROM (SELECT o.hospital_id, coalesce(o.campaign, '') AS campaign,
                   coalesce(o.meta_form_id, '') AS meta_form_id,
                   count(*) AS leads, count(*) FILTER (WHERE o.status = 'converted') AS conversions
              FROM old_rows o
             WHERE o.campaign IS NOT NULL OR o.meta_form_id IS NOT NULL
             GROUP BY 1, 2, 3) d
     WHERE c.hospital_id = d.hospital_id AND c.campaign = d.campaign
       AND c.meta_form_id = d.meta_form_id;
  ELSE
    -- UPDATE: only rows whose key or conversion changed, as -1 for the old and +1 for the new.
    INSERT INTO campaign_link_counts AS c (hospital_id, campaign, meta_form_id, leads, conversions)
      SELECT hospital_id, campaign, meta_form_id, sum(dl), sum(dc)
        FROM (
          SELECT n.hospital_id, coalesce(n.campaign, '') AS campaign,
                 coalesce(n.meta_form_id, '') AS meta_form_id,
                 1 AS dl, (n.status = 'converted')::int AS dc
            FROM new_rows n JOIN old_rows o ON o.hospital_id = n.hospital_id AND o.id = n.id
           WHERE (n.campaign IS NOT NULL OR n.meta_form_id IS NOT NULL)
             AND (o.campaign, o.meta_form_id, o.status = 'converted')
                 IS DISTINCT FROM (n.campaign, n.meta_form_id, n.status = 'converted')
          UNION ALL
          SELECT o.hospital_id, coalesce(o.campaign, ''), coalesce(o.meta_form_id, ''),
                 -1, -((o.status = 'converted')::int)
            FROM old_rows o JOIN new_rows n ON n.hospital_id = o.hospital_id AND n.id = o.id
           WHERE (o.campaign IS NOT NULL OR o.meta_form_id IS NOT NULL)
             AND (o.campaign, o.meta_form_id, o.status = 'converted')
                 IS DISTINCT FROM (n.campaign, n.meta_form_id, n.status = 'converted')
        ) d
       GROUP BY 1, 2, 3
      HAVING sum(dl) <> 0 OR sum(dc) <> 0
       ORDER BY 1, 2, 3
    ON CONFLICT (hospital_id, campaign, meta_form_id) DO UPDATE
      SET leads = c.leads + excluded.leads, conversions = c.conversions + excluded.conversions;
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER leads_campaign_counts_insert AFTER INSERT ON leads
  REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campaign_link_counts_apply();
--> statement-breakpoint
CREATE TRIGGER leads_campaign_counts_update AFTER UPDATE ON leads
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campaign_link_counts_apply();
--> statement-breakpoint
CREATE TRIGGER leads_campaign_counts_delete AFTER DELETE ON leads
  REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campaign_link_counts_apply();
--> statement-breakpoint
-- The counts of the leads already there.
INSERT INTO campaign_link_counts (hospital_id, campaign, meta_form_id, leads, conversions)
  SELECT hospital_id, coalesce(campaign, ''), coalesce(meta_form_id, ''),
         count(*), count(*) FILTER (WHERE status = 'converted')
    FROM leads
   WHERE campaign IS NOT NULL OR meta_form_id IS NOT NULL
   GROUP BY 1, 2, 3;
--> statement-breakpoint
-- Revenue reads only the converted leads that became patients.
CREATE INDEX leads_hospital_converted_idx ON leads (hospital_id) INCLUDE (campaign, meta_form_id, patient_id)
  WHERE status = 'converted' AND patient_id IS NOT NULL;
