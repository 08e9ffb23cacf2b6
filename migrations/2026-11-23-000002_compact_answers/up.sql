-- A move's answer is rebuilt from the log when a retry asks for it: the stream already holds
-- everything the answer showed, so the row keeps only where the move's events lie and the seat
-- it was made from. Writing the whole answer on every move doubled what a move wrote.
-- Rows written before keep their body and are answered from it.
ALTER TABLE idempotency ALTER COLUMN body DROP NOT NULL;
ALTER TABLE idempotency
    ADD COLUMN seat      integer,
    ADD COLUMN first_seq bigint,
    ADD COLUMN last_seq  bigint,
    ADD CONSTRAINT idempotency_answer_kept CHECK (body IS NOT NULL OR (seat IS NOT NULL AND first_seq IS NOT NULL AND last_seq IS NOT NULL));
