-- The signature of whoever completes a work order, drawn on the screen and kept as a photo (issue
-- 55, docs/decisions/0089), as a job's proof of delivery keeps its signature (`jobs.signature_photo_id`):
-- the photo waits on the phone with no signal and uploads when the network returns. Cleared, with
-- `signed_name`, when the order is reopened.
ALTER TABLE `work_orders` ADD `signature_photo_id` text;
