-- the catalogue search document: name, detail, meta and tag names, lower-case and accent-free like foldSql
CREATE FUNCTION procedure_search_text(uuid, text, text, text) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT translate(lower(concat_ws(' ', $2, $3, $4, (
    SELECT string_agg(t.name, ' ' ORDER BY t.name) FROM procedure_tags pt JOIN tags t ON t.id = pt.tag_id WHERE pt.procedure_id = $1
  ))), 'ÁÀÄÂÃÉÈËÊÍÌÏÎÓÒÖÔÕÚÙÜÛÑÇáàäâãéèëêíìïîóòöôõúùüûñç', 'aaaaaeeeeiiiiooooouuuuncaaaaaeeeeiiiiooooouuuunc')
$$;--> statement-breakpoint
CREATE FUNCTION procedures_search_text_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_text := procedure_search_text(NEW.id, NEW.name, NEW.detail, NEW.meta);
  RETURN NEW;
END $$;--> statement-breakpoint
CREATE TRIGGER procedures_search_text BEFORE INSERT OR UPDATE ON procedures
  FOR EACH ROW EXECUTE FUNCTION procedures_search_text_refresh();--> statement-breakpoint
CREATE FUNCTION procedure_tags_search_text_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- the procedures trigger recomputes the document on any update of the row
  UPDATE procedures SET search_text = '' WHERE id = (CASE WHEN TG_OP = 'DELETE' THEN OLD.procedure_id ELSE NEW.procedure_id END);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER procedure_tags_search_text AFTER INSERT OR UPDATE OR DELETE ON procedure_tags
  FOR EACH ROW EXECUTE FUNCTION procedure_tags_search_text_refresh();--> statement-breakpoint
CREATE FUNCTION tags_search_text_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE procedures SET search_text = '' WHERE id IN (SELECT procedure_id FROM procedure_tags WHERE tag_id = NEW.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER tags_search_text AFTER UPDATE OF name ON tags
  FOR EACH ROW EXECUTE FUNCTION tags_search_text_refresh();--> statement-breakpoint
-- every instance drops its cached catalogue pages when the catalogue changes, whoever wrote it
CREATE FUNCTION catalog_changed_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('catalog_changed', '');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER procedures_catalog_changed AFTER INSERT OR UPDATE OR DELETE ON procedures
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_changed_notify();--> statement-breakpoint
CREATE TRIGGER procedure_tags_catalog_changed AFTER INSERT OR UPDATE OR DELETE ON procedure_tags
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_changed_notify();--> statement-breakpoint
CREATE TRIGGER tags_catalog_changed AFTER INSERT OR UPDATE OR DELETE ON tags
  FOR EACH STATEMENT EXECUTE FUNCTION catalog_changed_notify();--> statement-breakpoint
UPDATE procedures SET search_text = '';
