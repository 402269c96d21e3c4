-- every instance drops its verified sessions of an account whose row changed (name, e-mail, plan, anything shown)
CREATE FUNCTION account_changed_notify_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('account_changed', NEW.id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER users_account_changed AFTER UPDATE ON users
  FOR EACH ROW WHEN (OLD IS DISTINCT FROM NEW) EXECUTE FUNCTION account_changed_notify_row();--> statement-breakpoint
-- a new aula or diploma makes its administrator one ('/api/me' says so); later changes notify access_changed '*'
CREATE FUNCTION account_changed_notify_admin() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('account_changed', NEW.admin_user_id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER classrooms_admin_account_changed AFTER INSERT ON classrooms
  FOR EACH ROW WHEN (NEW.admin_user_id IS NOT NULL) EXECUTE FUNCTION account_changed_notify_admin();--> statement-breakpoint
CREATE TRIGGER diplomas_admin_account_changed AFTER INSERT ON diplomas
  FOR EACH ROW WHEN (NEW.admin_user_id IS NOT NULL) EXECUTE FUNCTION account_changed_notify_admin();
