-- One writer per vehicle holds by construction now (docs/decisions/0016): each workspace's
-- Durable Object folds its vehicles' reports and is the only writer of their state, so the
-- version check of migration 0002 has nothing left to refuse. motion_state stays, read once by
-- an object that does not know a vehicle yet.
DROP TRIGGER IF EXISTS `motion_state_one_writer`;
