//! Choosing a move from scored root moves (SPEC 3).
