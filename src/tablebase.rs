//! Syzygy endgame tablebases (SPEC 10).
