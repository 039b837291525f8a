-- Issue 55: a workspace may require a work order to have at least one line (labour or part)
-- before it can be completed (Preferences, docs/decisions/0092). Off by default: a work order
-- done with no cost recorded (a check that found nothing) completes as before.
ALTER TABLE `workspaces` ADD `work_order_lines_required` integer DEFAULT 0 NOT NULL;
