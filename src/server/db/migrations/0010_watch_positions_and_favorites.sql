CREATE TABLE "favorite_procedures" (
	"user_id" text NOT NULL,
	"procedure_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "favorite_procedures_user_id_procedure_id_pk" PRIMARY KEY("user_id","procedure_id")
);
--> statement-breakpoint
CREATE TABLE "watch_positions" (
	"user_id" text NOT NULL,
	"procedure_id" uuid NOT NULL,
	"position_seconds" double precision NOT NULL,
	"duration_seconds" double precision NOT NULL,
	"watched_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "watch_positions_user_id_procedure_id_pk" PRIMARY KEY("user_id","procedure_id")
);
--> statement-breakpoint
ALTER TABLE "favorite_procedures" ADD CONSTRAINT "favorite_procedures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "favorite_procedures" ADD CONSTRAINT "favorite_procedures_procedure_id_procedures_id_fk" FOREIGN KEY ("procedure_id") REFERENCES "public"."procedures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_positions" ADD CONSTRAINT "watch_positions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "watch_positions" ADD CONSTRAINT "watch_positions_procedure_id_procedures_id_fk" FOREIGN KEY ("procedure_id") REFERENCES "public"."procedures"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "favorite_procedures_user_created_idx" ON "favorite_procedures" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "watch_positions_user_updated_idx" ON "watch_positions" USING btree ("user_id","updated_at");