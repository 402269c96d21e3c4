-- every instance drops the cached rights of an account whose rights may have shrunk, whoever changed them
CREATE FUNCTION access_changed_notify_row_user() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('access_changed', OLD.user_id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER sessions_access_changed AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION access_changed_notify_row_user();--> statement-breakpoint
CREATE TRIGGER classroom_users_access_changed AFTER DELETE ON classroom_users
  FOR EACH ROW EXECUTE FUNCTION access_changed_notify_row_user();--> statement-breakpoint
CREATE TRIGGER diploma_users_access_changed AFTER DELETE ON diploma_users
  FOR EACH ROW EXECUTE FUNCTION access_changed_notify_row_user();--> statement-breakpoint
CREATE FUNCTION access_changed_notify_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('access_changed', OLD.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_access_changed AFTER UPDATE ON users
  FOR EACH ROW WHEN (
    OLD.type IS DISTINCT FROM NEW.type
    OR OLD.payment_status IS DISTINCT FROM NEW.payment_status
    OR OLD.termination_date IS DISTINCT FROM NEW.termination_date
    OR OLD.is_disabled IS DISTINCT FROM NEW.is_disabled
    OR OLD.anonymized_at IS DISTINCT FROM NEW.anonymized_at
  ) EXECUTE FUNCTION access_changed_notify_account();--> statement-breakpoint
-- an aula or diploma that changed who it opens to: every account, since an open aula needs no list
CREATE FUNCTION access_changed_notify_everyone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('access_changed', '*');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER classrooms_access_changed AFTER UPDATE ON classrooms
  FOR EACH ROW WHEN (
    OLD.is_active IS DISTINCT FROM NEW.is_active
    OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
    OR OLD.access_type IS DISTINCT FROM NEW.access_type
    OR OLD.admin_user_id IS DISTINCT FROM NEW.admin_user_id
  ) EXECUTE FUNCTION access_changed_notify_everyone();--> statement-breakpoint
CREATE TRIGGER classrooms_deleted_access_changed AFTER DELETE ON classrooms
  FOR EACH STATEMENT EXECUTE FUNCTION access_changed_notify_everyone();--> statement-breakpoint
CREATE TRIGGER classroom_procedures_access_changed AFTER DELETE ON classroom_procedures
  FOR EACH STATEMENT EXECUTE FUNCTION access_changed_notify_everyone();--> statement-breakpoint
CREATE TRIGGER diplomas_access_changed AFTER UPDATE ON diplomas
  FOR EACH ROW WHEN (
    OLD.is_active IS DISTINCT FROM NEW.is_active OR OLD.admin_user_id IS DISTINCT FROM NEW.admin_user_id
  ) EXECUTE FUNCTION access_changed_notify_everyone();--> statement-breakpoint
CREATE TRIGGER diplomas_deleted_access_changed AFTER DELETE ON diplomas
  FOR EACH STATEMENT EXECUTE FUNCTION access_changed_notify_everyone();
