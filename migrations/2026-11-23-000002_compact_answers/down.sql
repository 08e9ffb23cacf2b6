DELETE FROM idempotency WHERE body IS NULL;
ALTER TABLE idempotency DROP CONSTRAINT idempotency_answer_kept;
ALTER TABLE idempotency DROP COLUMN seat, DROP COLUMN first_seq, DROP COLUMN last_seq;
ALTER TABLE idempotency ALTER COLUMN body SET NOT NULL;
