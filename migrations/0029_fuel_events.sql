-- Issue 42: refuels and fuel drops seen in the beacon's fuel level are timeline events
-- (docs/decisions/0050). They keep the levels before and after, in percent of the tank; litres
-- are worked out from the vehicle's tank when read, so setting the tank later gives every past
-- event its litres.
ALTER TABLE `vehicle_events` ADD `fuel_from` real;
ALTER TABLE `vehicle_events` ADD `fuel_to` real;
