//! Alpha-beta search.
