-- the catalogue keeps a member's 'Visto' and favourite marks with their verified session: a favourite added or
-- removed, or a procedure becoming watched (or not), drops that account's on every instance
CREATE FUNCTION account_changed_notify_owner() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('account_changed', COALESCE(NEW.user_id, OLD.user_id));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER favorite_procedures_account_changed AFTER INSERT OR DELETE ON favorite_procedures
  FOR EACH ROW EXECUTE FUNCTION account_changed_notify_owner();--> statement-breakpoint
CREATE TRIGGER watch_positions_watched_account_changed AFTER INSERT ON watch_positions
  FOR EACH ROW WHEN (NEW.watched_at IS NOT NULL) EXECUTE FUNCTION account_changed_notify_owner();--> statement-breakpoint
CREATE TRIGGER watch_positions_watched_changed_account_changed AFTER UPDATE ON watch_positions
  FOR EACH ROW WHEN (OLD.watched_at IS DISTINCT FROM NEW.watched_at) EXECUTE FUNCTION account_changed_notify_owner();--> statement-breakpoint
CREATE TRIGGER watch_positions_unwatched_account_changed AFTER DELETE ON watch_positions
  FOR EACH ROW WHEN (OLD.watched_at IS NOT NULL) EXECUTE FUNCTION account_changed_notify_owner();
