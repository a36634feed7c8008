//! Strength profiles, the UCI_Elo ladder, avatars and seeding (SPEC 3-6).
