-- trigram indexes make substring search fast (admin users list); pg_trgm is a trusted extension since PostgreSQL 13
CREATE EXTENSION IF NOT EXISTS pg_trgm;
