CREATE TABLE "classroom_co_admins" (
	"classroom_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"platform_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "classroom_co_admins_classroom_id_user_id_pk" PRIMARY KEY("classroom_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "lti_accounts" (
	"platform_id" uuid NOT NULL,
	"sub" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lti_accounts_platform_id_sub_pk" PRIMARY KEY("platform_id","sub")
);
--> statement-breakpoint
CREATE TABLE "lti_launch_states" (
	"state" text PRIMARY KEY NOT NULL,
	"nonce" text NOT NULL,
	"platform_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "lti_launch_states_nonce_unique" UNIQUE("nonce")
);
--> statement-breakpoint
CREATE TABLE "lti_link_members" (
	"link_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"sub" text NOT NULL,
	CONSTRAINT "lti_link_members_link_id_user_id_pk" PRIMARY KEY("link_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "lti_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"platform_id" uuid NOT NULL,
	"deployment_id" text NOT NULL,
	"resource_link_id" text NOT NULL,
	"context_id" text,
	"context_title" text,
	"target_kind" text NOT NULL,
	"target_id" uuid NOT NULL,
	"line_item_url" text,
	"memberships_url" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lti_links_platform_resource_link_key" UNIQUE("platform_id","resource_link_id")
);
--> statement-breakpoint
CREATE TABLE "lti_pending_links" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" uuid NOT NULL,
	"sub" text NOT NULL,
	"user_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_platforms" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"deployment_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"authorization_url" text NOT NULL,
	"token_url" text NOT NULL,
	"jwks_url" text NOT NULL,
	"organization_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lti_platforms_issuer_client_id_key" UNIQUE("issuer","client_id")
);
--> statement-breakpoint
CREATE TABLE "lti_roster_members" (
	"classroom_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"link_id" uuid NOT NULL,
	CONSTRAINT "lti_roster_members_classroom_id_user_id_pk" PRIMARY KEY("classroom_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "lti_scores" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"link_id" uuid NOT NULL,
	"user_id" text NOT NULL,
	"score_given" double precision NOT NULL,
	"score_maximum" double precision NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pendiente' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "classroom_co_admins" ADD CONSTRAINT "classroom_co_admins_classroom_id_classrooms_id_fk" FOREIGN KEY ("classroom_id") REFERENCES "public"."classrooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "classroom_co_admins" ADD CONSTRAINT "classroom_co_admins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "classroom_co_admins" ADD CONSTRAINT "classroom_co_admins_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_accounts" ADD CONSTRAINT "lti_accounts_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_accounts" ADD CONSTRAINT "lti_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_launch_states" ADD CONSTRAINT "lti_launch_states_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_link_members" ADD CONSTRAINT "lti_link_members_link_id_lti_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."lti_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_link_members" ADD CONSTRAINT "lti_link_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_links" ADD CONSTRAINT "lti_links_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_pending_links" ADD CONSTRAINT "lti_pending_links_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_pending_links" ADD CONSTRAINT "lti_pending_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_platforms" ADD CONSTRAINT "lti_platforms_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_roster_members" ADD CONSTRAINT "lti_roster_members_classroom_id_classrooms_id_fk" FOREIGN KEY ("classroom_id") REFERENCES "public"."classrooms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_roster_members" ADD CONSTRAINT "lti_roster_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_roster_members" ADD CONSTRAINT "lti_roster_members_link_id_lti_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."lti_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_scores" ADD CONSTRAINT "lti_scores_link_id_lti_links_id_fk" FOREIGN KEY ("link_id") REFERENCES "public"."lti_links"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_scores" ADD CONSTRAINT "lti_scores_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "classroom_co_admins_user_id_idx" ON "classroom_co_admins" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "lti_accounts_user_id_idx" ON "lti_accounts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "lti_launch_states_expires_at_idx" ON "lti_launch_states" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "lti_link_members_user_idx" ON "lti_link_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "lti_links_target_idx" ON "lti_links" USING btree ("target_kind","target_id");--> statement-breakpoint
CREATE INDEX "lti_scores_created_at_idx" ON "lti_scores" USING btree ("created_at");