-- Issue 31: the place and alert evaluators' state has lived with each vehicle's fold in the
-- workspace's Durable Object since ingestion moved there (docs/decisions/0016, 0019); nothing has
-- read or written `alert_state` since. Dropped, with its rows (plain JSON evaluator state, no
-- record anyone relies on).
DROP TABLE IF EXISTS `alert_state`;
