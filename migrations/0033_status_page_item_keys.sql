-- Existing items get a slug of their public name (a tag item's tag), made unique within the page with
-- the item's id (docs/adr/0461); the next save keeps these keys when the API client sends them back.
ALTER TABLE "status_page_items" ADD COLUMN "key" text;--> statement-breakpoint
UPDATE "status_page_items" i SET "key" = k.key FROM (
  SELECT x.id, CASE WHEN row_number() OVER (PARTITION BY s.page_id, x.base ORDER BY s.position, x.position) = 1 THEN x.base
    ELSE trim(trailing '-' from left(x.base, 50)) || '-' || x.id END AS key
  FROM (SELECT id, section_id, position,
      coalesce(nullif(trim(both '-' from left(regexp_replace(lower(coalesce(public_name, tag, '')), '[^a-z0-9]+', '-', 'g'), 64)), ''), 'item') AS base
    FROM "status_page_items") x
  JOIN "status_page_sections" s ON s.id = x.section_id
) k WHERE k.id = i.id;--> statement-breakpoint
ALTER TABLE "status_page_items" ALTER COLUMN "key" SET NOT NULL;
