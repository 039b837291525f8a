import type { Polyline } from "./geo";

/**
 * Hand-made street routes in a few US cities, as [latitude, longitude] waypoints at
 * intersections, traced from street maps. Vehicles drive a route one way, park, and drive it back.
 * Straight segments between waypoints follow the street (Chicago's grid, Manhattan's avenues,
 * Market Street...), so a vehicle on the map stays on a road.
 */
export interface City {
  name: string;
  routes: { name: string; line: Polyline }[];
}

export const cities: City[] = [
  {
    name: "Chicago, IL",
    routes: [
      {
        name: "Loop to Wicker Park (Madison, Halsted, Chicago Ave, Ashland)",
        line: [
          [41.882, -87.6278], // State & Madison
          [41.8819, -87.6358], // Madison & Franklin
          [41.8818, -87.6474], // Madison & Halsted
          [41.8918, -87.6475], // Halsted & Grand
          [41.8964, -87.6476], // Halsted & Chicago
          [41.8963, -87.6568], // Chicago & Noble
          [41.8962, -87.6666], // Chicago & Ashland
          [41.9036, -87.6671], // Ashland & Division
          [41.9104, -87.6676], // Ashland & North
        ],
      },
      {
        name: "South Loop to Gold Coast (Michigan Ave)",
        line: [
          [41.8675, -87.6245], // Michigan & Roosevelt
          [41.8743, -87.6245], // Michigan & Harrison
          [41.8781, -87.6245], // Michigan & Jackson
          [41.8846, -87.6245], // Michigan & Randolph
          [41.8887, -87.6244], // Michigan Ave bridge
          [41.8926, -87.6243], // Michigan & Ohio
          [41.8968, -87.6243], // Michigan & Chicago
          [41.9005, -87.6245], // Michigan & Oak
        ],
      },
      {
        name: "West Loop to Pilsen (Halsted, 18th St)",
        line: [
          [41.8845, -87.6476], // Halsted & Randolph
          [41.8781, -87.6474], // Halsted & Jackson
          [41.8674, -87.6471], // Halsted & Roosevelt
          [41.8578, -87.6468], // Halsted & 18th
          [41.8578, -87.6565], // 18th & Racine
          [41.8577, -87.6664], // 18th & Ashland
        ],
      },
    ],
  },
  {
    name: "New York, NY",
    routes: [
      {
        name: "Chelsea to Murray Hill (8th Ave, 42nd St)",
        line: [
          [40.7403, -74.0025], // 8th Ave & W 14th
          [40.7465, -73.998], // 8th Ave & W 23rd
          [40.7522, -73.9928], // 8th Ave & W 34th
          [40.7572, -73.9898], // 8th Ave & W 42nd
          [40.7556, -73.9863], // W 42nd & 6th Ave
          [40.7531, -73.9807], // 42nd & 5th Ave
          [40.7514, -73.9757], // E 42nd & Lexington
        ],
      },
      {
        name: "East Village to East Harlem (1st Ave)",
        line: [
          [40.7232, -73.9885], // 1st Ave & E Houston
          [40.7315, -73.9826], // 1st Ave & E 14th
          [40.7443, -73.973], // 1st Ave & E 34th
          [40.7581, -73.9627], // 1st Ave & E 57th
          [40.7696, -73.9542], // 1st Ave & E 76th
          [40.7832, -73.9443], // 1st Ave & E 96th
        ],
      },
      {
        name: "Midtown crosstown (34th St, 1st Ave)",
        line: [
          [40.7522, -73.9928], // W 34th & 8th Ave
          [40.7503, -73.9884], // W 34th & 6th Ave
          [40.7484, -73.9857], // 34th & 5th Ave
          [40.7462, -73.9808], // E 34th & Lexington
          [40.7443, -73.973], // E 34th & 1st Ave
          [40.7512, -73.9679], // 1st Ave & E 45th
          [40.7581, -73.9627], // 1st Ave & E 57th
        ],
      },
    ],
  },
  {
    name: "San Francisco, CA",
    routes: [
      {
        name: "Ferry Building to Castro (Market St)",
        line: [
          [37.7946, -122.3944], // Market & Embarcadero
          [37.7894, -122.4013], // Market & Montgomery
          [37.7847, -122.4075], // Market & Powell
          [37.7795, -122.4138], // Market & 8th
          [37.7752, -122.4194], // Market & Van Ness
          [37.7677, -122.429], // Market & Church
          [37.7625, -122.4351], // Market & Castro
        ],
      },
      {
        name: "Civic Center to the Marina (Van Ness, Lombard)",
        line: [
          [37.7752, -122.4194], // Van Ness & Market
          [37.7796, -122.4203], // Van Ness & McAllister
          [37.7855, -122.4213], // Van Ness & Geary
          [37.7906, -122.4222], // Van Ness & California
          [37.8001, -122.424], // Van Ness & Lombard
          [37.7996, -122.436], // Lombard & Fillmore
          [37.7985, -122.4465], // Lombard & Lyon
        ],
      },
      {
        name: "Mission (Valencia St)",
        line: [
          [37.7722, -122.4228], // Valencia & Market
          [37.765, -122.4219], // Valencia & 16th
          [37.7587, -122.4213], // Valencia & 20th
          [37.7523, -122.4204], // Valencia & 24th
          [37.7479, -122.4201], // Valencia & Cesar Chavez
        ],
      },
    ],
  },
  {
    name: "Austin, TX",
    routes: [
      {
        name: "Capitol to South Congress",
        line: [
          [30.274, -97.7404], // Congress & 11th (Capitol)
          [30.2687, -97.7427], // Congress & 6th
          [30.2627, -97.7451], // Congress & Cesar Chavez
          [30.259, -97.7466], // S Congress & Riverside
          [30.2522, -97.7489], // S Congress & Elizabeth
          [30.246, -97.751], // S Congress & Oltorf
        ],
      },
      {
        name: "Downtown crosstown (6th St)",
        line: [
          [30.2706, -97.753], // 6th & Lamar
          [30.2697, -97.7479], // 6th & Guadalupe
          [30.2687, -97.7427], // 6th & Congress
          [30.2675, -97.7385], // 6th & Red River
          [30.266, -97.7345], // 6th & I-35
        ],
      },
      {
        name: "North Lamar (6th to 38th)",
        line: [
          [30.2706, -97.753], // Lamar & 6th
          [30.2787, -97.7514], // Lamar & 15th
          [30.2876, -97.7475], // Lamar & 24th
          [30.2967, -97.7449], // Lamar & 31st
          [30.3055, -97.7424], // Lamar & 38th
        ],
      },
    ],
  },
];
