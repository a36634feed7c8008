//! Syzygy endgame tablebases (SPEC 10). TEMPORARY placeholder type until the prober lands.
pub struct Tablebases;
