// The in-code fixture sheet for DATA_MODE=test: a small, fixed calendar with stable keys, read
// through the same parser as every other source so tests exercise the real pipeline.

/** Fixture sheet in the canonical layout. */
export const FIXTURE_SHEET_CSV = [
  "Title,Curated,Date,Date To,Start Time,End Time,Host Country,Location,Area,Price,Categories,Primary URL,Age Guidance,Setting,Audience Country,Event Category,Notes,Tags,Series Key,Event Key",
  'Canal Amapiano Sunset,Yes,2026-06-21,,18:00,23:00,UK,Quai de Valmy,10,Free,"Amapiano, Afrobeats",https://tickets.canal.example/sunset,All ages,Outdoor,FR,party,Sunset session by the water.,"canal, sunset",,evt_fixture000001',
  "Belleville Rooftop House,,2026-06-21,,22:00,04:00,FR,Le Toit Belleville,20,€15,House / Disco,https://rooftop.example/house,18+,Outdoor,,party,Late house on the roof.,,,evt_fixture000002",
  'Marais Jazz-Funk Brunch,Yes,2026-06-20,,12:00,15:30,FR,Café des Archives,3,€25,"Funk, R&B",https://brunch.example,All ages,Indoor,,food,"Brunch, live band and a DJ.",brunch,,evt_fixture000003',
  "Pigalle Hip Hop Cypher,,2026-06-21,,20:30,,FR,Place Pigalle,18,Free,Hip Hop / Rap,,16+,Outdoor,,,Open mic cypher.,street stage,,evt_fixture000004",
  "Bastille Dancehall Night,,2026-06-21,,23:00,05:00,UK,Club Roquette,11,£10,Dancehall / Bashment,https://roquette.example,18+,Indoor,UK,party,Soundsystem all night.,,,evt_fixture000005",
  "Batignolles Sound Garden,Yes,2026-06-19,2026-06-21,14:00,22:00,NL,Square des Batignolles,17,€10,Electro / Afro House,https://garden.example,All ages,Outdoor,,culture,Three-day garden festival.,festival,,evt_fixture000006",
  "Mystery Warehouse Party,,2026-06-22,,TBC,,,TBA,TBC,TBA,Techno,,,,,,,,,evt_fixture000007",
  'Latin Quarter Reggaeton,,2026-06-20,,21:00,02:00,CA,"Le Caveau, rue de la Huchette",5,12,Reggaeton / Baile Funk,https://caveau.example,18+,Indoor,FR,party,"Reggaeton, baile funk and ""perreo"" classics.",,,evt_fixture000008',
  "Montparnasse Zouk & Kompa,,2026-06-21,,19:00,23:30,FR,Salle Maine,14,€8,Zouk / Kompa,https://maine.example,All ages,Indoor,,,Caribbean dance floor.,,,evt_fixture000009",
  "Trocadéro Pop Choir,Yes,2026-06-21,,16:00,17:30,FR,Jardins du Trocadéro,16,Free,Pop,https://choir.example,All ages,Outdoor,,culture,A 200-voice pop choir.,family,,evt_fixture000010",
  "Oberkampf UK Garage,,2026-06-21,,22:30,03:00,UK,Bar Oberkampf,11,€5,UKG / UK Drill,https://ukg.example,18+,Indoor,UK,party,Two-step until late.,,,evt_fixture000011",
  "Bercy Yoga Beats,,2026-06-21,,09:00,10:30,FR,Parc de Bercy,12,Free,Dance,,All ages,Outdoor,,wellness,Morning yoga with a DJ.,,,evt_fixture000012",
].join("\n");
