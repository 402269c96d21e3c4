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
--> statement-breakpoint
-- the profile remembers its certificates and organisation with the session: an issued, revoked or deleted
-- certificate drops its holder's, a renamed or deleted organisation everyone's
CREATE FUNCTION account_changed_notify_certificate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('account_changed', COALESCE(NEW.user_id, OLD.user_id));
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER certificates_account_changed AFTER INSERT OR UPDATE OR DELETE ON certificates
  FOR EACH ROW EXECUTE FUNCTION account_changed_notify_certificate();--> statement-breakpoint
CREATE FUNCTION account_changed_notify_everyone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('account_changed', '*');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER organizations_account_changed AFTER UPDATE OR DELETE ON organizations
  FOR EACH STATEMENT EXECUTE FUNCTION account_changed_notify_everyone();
